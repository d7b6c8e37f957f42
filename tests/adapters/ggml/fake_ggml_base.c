/* A stand-in libggml-base.so of another ggml version, for adapter_ggml_version_mismatch:
 * gelucheck_ggml must refuse it before it looks up anything else. */
const char *ggml_version(void);
const char *ggml_commit(void);

const char *ggml_version(void)
{
    return "0.18.0";
}

const char *ggml_commit(void)
{
    return "0000000";
}
