/* =================================================================================================
 * test_dlopen.c: the shared library loads by dlopen, as language bindings (Python's ctypes, JNI)
 * load it: no static TLS of its own (an initial-exec thread-local variable would put all of its
 * thread-local data there, and glibc then refuses to load it), and its entry points resolve.
 * Usage: test_dlopen <path of libocl_reduce.so>. Needs no OpenCL device.
 * ============================================================================================== */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_dlopen <libocl_reduce.so>\n");
    return 2;
  }
  void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    fprintf(stderr, "test_dlopen: dlopen failed: %s\n", dlerror());
    return 1;
  }
  int (*version)(void) = NULL;
  *(void **)&version = dlsym(library, "ocl_reduce_version");
  if (!version || version() <= 0) {
    fprintf(stderr, "test_dlopen: ocl_reduce_version missing or wrong\n");
    return 1;
  }
  printf("test_dlopen: loaded %s, version %d\n", argv[1], version());
  dlclose(library);
  return 0;
}
