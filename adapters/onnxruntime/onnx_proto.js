'use strict';
// A protobuf encoder for the subset of onnx.proto (ONNX 1.12 as Debian ships it, field numbers
// checked against /usr/lib/python3/dist-packages/onnx/onnx.proto) that the GELU graphs need.
// Fields go out in field-number order and repeated scalars unpacked, as protobuf's own
// serializers write them, so a test can compare our bytes with onnx's re-serialization.

const WIRE_VARINT = 0, WIRE_LEN = 2, WIRE_FIXED32 = 5;

// TensorProto.DataType
const DT = { FLOAT: 1, INT32: 6, INT64: 7, FLOAT16: 10, DOUBLE: 11, BFLOAT16: 16 };
// AttributeProto.AttributeType
const AT = { FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4 };

function varint(v) { // v: a non-negative integer below 2^53
    if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`varint: bad value ${v}`);
    const out = [];
    while (v >= 0x80) {
        out.push((v % 0x80) | 0x80);
        v = Math.floor(v / 0x80);
    }
    out.push(v);
    return Buffer.from(out);
}
const tag = (field, wire) => varint(field * 8 + wire);
const fVarint = (field, v) => Buffer.concat([tag(field, WIRE_VARINT), varint(v)]);
function fBytes(field, b) {
    return Buffer.concat([tag(field, WIRE_LEN), varint(b.length), b]);
}
const fStr = (field, s) => fBytes(field, Buffer.from(s, 'utf8'));
function fFloat(field, v) {
    const b = Buffer.alloc(4);
    b.writeFloatLE(v);
    return Buffer.concat([tag(field, WIRE_FIXED32), b]);
}
// an optional string/message is left out when absent
const optStr = (field, s) => (s === undefined || s === '' ? [] : [fStr(field, s)]);
const cat = (parts) => Buffer.concat(parts.flat());

// TensorProto: dims = 1, data_type = 2, name = 8, raw_data = 9 (little-endian bytes)
function tensor({ name, dataType, dims = [], raw }) {
    return cat([dims.map((d) => fVarint(1, d)), fVarint(2, dataType), optStr(8, name),
                fBytes(9, raw)]);
}

// AttributeProto: name = 1, f = 2, i = 3, s = 4, t = 5, type = 20
function attribute(a) {
    const value = { [AT.FLOAT]: () => fFloat(2, a.value), [AT.INT]: () => fVarint(3, a.value),
                    [AT.STRING]: () => fStr(4, a.value),
                    [AT.TENSOR]: () => fBytes(5, tensor(a.value)) };
    if (!value[a.type]) throw new Error(`attribute ${a.name}: unsupported type ${a.type}`);
    return cat([fStr(1, a.name), value[a.type](), fVarint(20, a.type)]);
}

// NodeProto: input = 1, output = 2, name = 3, op_type = 4, attribute = 5, domain = 7
function node({ inputs = [], outputs, name, opType, domain, attrs = [] }) {
    return cat([inputs.map((s) => fStr(1, s)), outputs.map((s) => fStr(2, s)), optStr(3, name),
                fStr(4, opType), attrs.map((a) => fBytes(5, attribute(a))), optStr(7, domain)]);
}

// ValueInfoProto name = 1, type = 2; TypeProto tensor_type = 1; TypeProto.Tensor elem_type = 1,
// shape = 2; TensorShapeProto dim = 1; Dimension dim_value = 1 (a number), dim_param = 2 (a
// string); shape null: rank unknown (no shape field)
function valueInfo({ name, elemType, shape }) {
    const dim = (d) => (typeof d === 'number' ? fVarint(1, d) : fStr(2, d));
    const shapeMsg = shape ? [fBytes(2, cat(shape.map((d) => fBytes(1, dim(d)))))] : [];
    const tensorType = cat([fVarint(1, elemType), shapeMsg]);
    return cat([fStr(1, name), fBytes(2, fBytes(1, tensorType))]);
}

// GraphProto: node = 1, name = 2, initializer = 5, input = 11, output = 12
function graph({ nodes, name, initializers = [], inputs, outputs }) {
    return cat([nodes.map((n) => fBytes(1, node(n))), fStr(2, name),
                initializers.map((t) => fBytes(5, tensor(t))),
                inputs.map((v) => fBytes(11, valueInfo(v))),
                outputs.map((v) => fBytes(12, valueInfo(v)))]);
}

// ModelProto: ir_version = 1, producer_name = 2, producer_version = 3, graph = 7,
// opset_import = 8; OperatorSetIdProto: domain = 1 ('' = ai.onnx: left out), version = 2
function model({ irVersion, producerName, producerVersion, graph: g, opsets }) {
    const opset = ([domain, version]) => fBytes(8, cat([optStr(1, domain), fVarint(2, version)]));
    return cat([fVarint(1, irVersion), optStr(2, producerName), optStr(3, producerVersion),
                fBytes(7, graph(g)), opsets.map(opset)]);
}

// v rounded to the nearest binary16 (ties to even), as its bit pattern: exact, from the double
function toHalfBits(v) {
    if (Number.isNaN(v)) return 0x7e00;
    const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
    const a = Math.abs(v);
    const rne = (t) => { // t >= 0 rounded to an integer, ties to even
        const f = Math.floor(t), d = t - f;
        return d > 0.5 || (d === 0.5 && f % 2 === 1) ? f + 1 : f;
    };
    if (a >= 65520) return sign | 0x7c00; // 65520 = 65504 + ulp/2: ties to even go to inf
    if (a < 2 ** -14) return sign | rne(a * 2 ** 24); // subnormal (1024 carries into normal)
    let e = Math.floor(Math.log2(a));
    if (2 ** e > a) e--;
    if (2 ** (e + 1) <= a) e++;
    return sign | (((e + 15) << 10) + rne((a / 2 ** e) * 1024) - 1024); // 2048 carries up
}

// the little-endian bytes of one scalar of dtype elemType
function scalarRaw(elemType, v) {
    const b = Buffer.alloc(elemType === DT.DOUBLE ? 8 : elemType === DT.FLOAT ? 4 : 2);
    if (elemType === DT.DOUBLE) b.writeDoubleLE(v);
    else if (elemType === DT.FLOAT) b.writeFloatLE(v);
    else if (elemType === DT.FLOAT16) b.writeUInt16LE(toHalfBits(v));
    else throw new Error(`scalarRaw: unsupported elem_type ${elemType}`);
    return b;
}

module.exports = { DT, AT, model, toHalfBits, scalarRaw, varint };
