/* gelucheck scan MODEL.onnx [--json FILE]: the GELU-like sites of an ONNX model and what ONNX
 * Runtime computes at each one at each graph optimization level (docs/model-audit.md).  The
 * onnxruntime adapter's script does the work (adapters/onnxruntime/scan.js): this command runs
 * it, passes its table through to stdout and turns its one-line error into ours. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "adapter.h"
#include "cli.h"

static const struct option long_opts[] = {
    { "json", required_argument, NULL, 'j' },
    { "runtime", required_argument, NULL, 'x' },
    { "torch-module", required_argument, NULL, 'y' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};
static const char short_opts[] = "+:h";

static void usage(void)
{
    printf("usage: gelucheck scan MODEL.onnx[?opt=LEVEL] [--json FILE]\n"
           "\n"
           "Lists every GELU-like site of an ONNX model: ai.onnx Gelu; com.microsoft Gelu,\n"
           "FastGelu, BiasGelu, QuickGelu; the erf and tanh decompositions exporters and people\n"
           "write; x*sigmoid(a*x), with a (1.702: the GELU approximation; 1: SiLU, listed but\n"
           "not a GELU).  For each ONNX Runtime optimization level (disabled, basic, extended,\n"
           "layout, all) it says which operator computes the site in the optimized whole model,\n"
           "and which kernel of 'gelucheck run --adapter scan:MODEL.onnx' measures it;\n"
           "MODEL.onnx?opt=LEVEL: that level only, as scan:MODEL.onnx?opt=LEVEL runs it.\n"
           "\n"
           "      --json FILE  also write the scan as JSON (schema gelucheck-scan/1)\n"
           "      --runtime RT where 'run --runtime RT' runs the kernels: onnxruntime (default)\n"
           "                   or onnxruntime-web (the optimizer's choices are still the\n"
           "                   native build's of the same version: the scan says so)\n"
           "      --torch-module FILE.pt\n"
           "                   the TorchScript module (torch.jit.trace, torch.jit.save) the\n"
           "                   model was exported from: each site is paired with its\n"
           "                   activation (by module path, else by order), unpaired ones and\n"
           "                   formulas the export changed are flagged\n"
           "  -h, --help       this text\n"
           "\n"
           "Example:\n"
           "  gelucheck scan model.onnx\n"
           "  gelucheck run --adapter scan:model.onnx --report audit\n"
           "\n"
           "Exit status: 0 scanned; 2 usage error; 3 the model cannot be read or loaded, or\n"
           "ONNX Runtime is not in this build.\n");
}

int cmd_scan(int argc, char **argv)
{
    const char *v[4] = { NULL }, *model = NULL;
    int rc = cli_parse_one(argc, argv, short_opts, long_opts, v, usage, "model",
                           "gelucheck scan MODEL.onnx [--json FILE]", &model);
    const char *json = v[0], *runtime = v[1], *torch_module = v[2];

    if (rc)
        return rc < 0 ? CLI_EXIT_PASS : rc;
    if (json && cli_check_output("--json", json))
        return CLI_EXIT_USAGE;
    if (runtime && gc_runtime_web(runtime) < 0) {
        cli_error("unknown --runtime '%s' (expected onnxruntime or onnxruntime-web)", runtime);
        return CLI_EXIT_USAGE;
    }
    char *cmd, err[4096];
    enum gc_status gs = gc_scan_command_rt(model, json, runtime, torch_module, &cmd, err,
                                           sizeof err);
    if (gs != GC_OK) {
        cli_error("cannot scan '%s': %s", model, err);
        return gs == GC_E_NOMEM ? CLI_EXIT_INTERNAL : gs == GC_E_SPEC ? CLI_EXIT_USAGE
                                                                       : CLI_EXIT_LOAD;
    }
    int st = cli_run_script(cmd, 1, err, sizeof err);
    free(cmd);
    if (st == 0) {
        fputs(err, stderr); /* its notes, if any */
        return CLI_EXIT_PASS;
    }
    size_t len;
    const char *why = cli_script_error(err, &len);
    if (st < 0)
        cli_error("cannot scan '%s': cannot start /bin/sh", model);
    else
        cli_error("%.*s", (int)len, len ? why : "the scan script failed with no message");
    return CLI_EXIT_LOAD;
}
