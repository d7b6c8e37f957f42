'use strict';
// The adapter side of gelucheck's subprocess protocol, version 1 (docs/design.md 5.2): requests
// read from stdin as a binary stream, replies written to stdout.
const MAX_BATCH = 65536; // the most elements in one request
const MAX_LINE = 4096; // the longest line, without its "\n"

// Buffered reads from an async iterable of Buffers: whole lines and exact byte counts.
class Reader {
    constructor(stream) {
        this.it = stream[Symbol.asyncIterator]();
        this.chunks = [];
        this.length = 0;
        this.eof = false;
    }

    async fill() { // false at the end of the stream
        if (this.eof) return false;
        const r = await this.it.next();
        if (r.done) {
            this.eof = true;
            return false;
        }
        this.chunks.push(r.value);
        this.length += r.value.length;
        return true;
    }

    take(n) { // the first n buffered bytes (n <= this.length)
        const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
        this.chunks = n < all.length ? [all.subarray(n)] : [];
        this.length = all.length - n;
        return all.subarray(0, n);
    }

    // the next line without "\n" (null at a clean end); throws on a line too long or cut short
    async line(max) {
        let scanned = 0;
        for (;;) {
            const all = this.chunks.length > 1 ? Buffer.concat(this.chunks) : this.chunks[0];
            const nl = all ? all.indexOf(10, scanned) : -1;
            if (nl >= 0) return this.take(nl + 1).subarray(0, nl);
            if (all) {
                this.chunks = [all];
                scanned = all.length;
            }
            if (this.length > max + 1) throw new Error('request line too long');
            if (!(await this.fill())) {
                if (this.length === 0) return null;
                throw new Error('stdin ends in the middle of a line');
            }
        }
    }

    async bytes(n) { // exactly n bytes, or null when the stream ends first
        while (this.length < n)
            if (!(await this.fill())) return null;
        return this.take(n);
    }

    async skip(n) { // drops n bytes; false when the stream ends first
        while (this.length < n) {
            n -= this.length;
            this.chunks = [];
            this.length = 0;
            if (!(await this.fill())) return false;
        }
        this.take(n);
        return true;
    }
}

const send = (data) => process.stdout.write(data); // synchronous for pipes and files on Linux
const printable = (s) => s.replace(/[^\x20-\x7e]/g, '?').slice(0, 1000);
const replyError = (message) => send(`error ${printable(message)}\n`);

// The banner: kernels is a Map name -> { func, dtype, description, size, eval }
function banner(version, kernels) {
    const lines = ['gelucheck-exec 1', `version ${version}`];
    for (const [name, k] of kernels)
        lines.push(`kernel ${name} ${k.func} ${k.dtype} ${printable(k.description)}`);
    lines.push('ready');
    send(lines.map((l) => `${l}\n`).join(''));
}

// One request; false when the stream cannot go on.  k.eval(bytes, n) resolves to the n
// results as little-endian bytes, or throws (then an 'error' reply).
async function serveRequest(reader, kernels, line) {
    const words = line.toString('latin1').replace(/\r$/, '').split(' ');
    if (words.length !== 3 || words[0] !== 'eval' || !/^[0-9]{1,9}$/.test(words[2])) {
        replyError(`malformed request '${line.toString('latin1').slice(0, 80)}'`);
        return true; // the next line may be good again
    }
    const [, name, count] = words, n = Number(count), k = kernels.get(name);
    if (!k) {
        replyError(`unknown kernel '${name.slice(0, 128)}'`);
        return false; // the size of its payload is unknown: the stream is lost
    }
    if (n > MAX_BATCH) { // the whole request first, then the reply
        if (!(await reader.skip(n * k.size))) return false;
        replyError(`batch of ${n} elements: at most ${MAX_BATCH}`);
        return true;
    }
    const x = await reader.bytes(n * k.size);
    if (x === null) return false;
    let y;
    try {
        y = n === 0 ? Buffer.alloc(0) : await k.eval(x, n);
        if (y.length !== n * k.size)
            throw new Error(`${y.length / k.size} results for ${n} inputs`);
    } catch (e) {
        replyError(`${name}: ${String(e.message || e).split('\n')[0]}`);
        return true;
    }
    send(Buffer.concat([Buffer.from(`ok ${n}\n`), y]));
    return true;
}

// Serves requests until stdin ends; resolves to the exit status.
async function serve(version, kernels, prog) {
    banner(version, kernels);
    const reader = new Reader(process.stdin);
    for (;;) {
        let line;
        try {
            line = await reader.line(MAX_LINE);
        } catch (e) {
            process.stderr.write(`${prog}: ${e.message}\n`);
            return 1;
        }
        if (line === null) return 0; // the host closed stdin: done
        if (!(await serveRequest(reader, kernels, line))) return 1;
    }
}

module.exports = { serve };
