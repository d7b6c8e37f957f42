/* Configure-time probe of the ggml adapter (CMakeLists.txt, try_run): prints the version and
 * commit libggml-base.so in argv[1] reports, as "VERSION COMMIT"; exit 1 when it cannot load. */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    char path[4096];
    if (argc != 2)
        return 2;
    snprintf(path, sizeof path, "%s/libggml-base.so", argv[1]);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        printf("%s\n", dlerror());
        return 1;
    }
    const char *(*v)(void) = (const char *(*)(void))dlsym(h, "ggml_version");
    const char *(*c)(void) = (const char *(*)(void))dlsym(h, "ggml_commit");
    if (!v || !c) {
        printf("%s has no ggml_version or ggml_commit\n", path);
        return 1;
    }
    printf("%s %s\n", v(), c());
    return 0;
}
