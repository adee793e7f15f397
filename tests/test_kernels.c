/* =================================================================================================
 * test_kernels.c: kernel sources. OCL_REDUCE_KERNEL_DIR makes a new context read cl/ from disk
 * (an edit takes effect without rebuilding the library); a missing file or a kernel that does not
 * compile gives its named status, with the file name or the build log in the message. A file
 * included first under a condition the compiler finds false is still there where it is included
 * again unconditionally (the library expands includes itself: src/base/sources.c).
 * ============================================================================================== */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/fixture.h"

#ifndef ORX_SOURCE_CL_DIR
#error "tests/CMakeLists.txt defines ORX_SOURCE_CL_DIR, the source tree's cl/"
#endif

static char scratch_dir[256];

/* Copies every file of cl/ (and of its folders, one level down) into the scratch directory,
 * replacing `from` by `to` in `file` (its path in cl/). */
static void copy_folder(const char *folder, const char *file, const char *from, const char *to) {
  char src_dir[512], dst_dir[512];
  snprintf(src_dir, sizeof src_dir, "%s%s%s", ORX_SOURCE_CL_DIR, *folder ? "/" : "", folder);
  snprintf(dst_dir, sizeof dst_dir, "%s%s%s", scratch_dir, *folder ? "/" : "", folder);
  mkdir(dst_dir, 0700);
  DIR *dir = opendir(src_dir);
  assert_non_null(dir);
  for (struct dirent *e; (e = readdir(dir)) != NULL;) {
    if (e->d_name[0] == '.')
      continue;
    char name[512], src[1024], dst[1024];
    snprintf(name, sizeof name, "%s%s%s", folder, *folder ? "/" : "", e->d_name);
    snprintf(src, sizeof src, "%s/%s", ORX_SOURCE_CL_DIR, name);
    snprintf(dst, sizeof dst, "%s/%s", scratch_dir, name);
    struct stat st;
    assert_int_equal(stat(src, &st), 0);
    if (S_ISDIR(st.st_mode)) {
      assert_true(*folder == '\0'); /* cl/ has one level of folders */
      copy_folder(e->d_name, file, from, to);
      continue;
    }
    FILE *in = fopen(src, "rb");
    assert_non_null(in);
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, in);
    fclose(in);
    text[n] = '\0';
    FILE *out = fopen(dst, "wb");
    assert_non_null(out);
    const int edited = file && strcmp(file, name) == 0;
    char *at = edited ? strstr(text, from) : NULL;
    if (edited)
      assert_non_null(at);
    if (at) {
      fwrite(text, 1, (size_t)(at - text), out);
      fputs(to, out);
      fputs(at + strlen(from), out);
    } else {
      fputs(text, out);
    }
    fclose(out);
  }
  closedir(dir);
}

static void copy_sources(const char *file, const char *from, const char *to) {
  copy_folder("", file, from, to);
}

/* Removes the scratch directory's files and folders (one level down), keeping it. */
static void remove_sources(void) {
  static const char *const folders[] = {"lib", "kernels", ""};
  for (size_t f = 0; f < sizeof folders / sizeof folders[0]; f++) {
    char path[512];
    snprintf(path, sizeof path, "%s%s%s", scratch_dir, *folders[f] ? "/" : "", folders[f]);
    DIR *dir = opendir(path);
    if (!dir)
      continue;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
      if (e->d_name[0] == '.')
        continue;
      char entry[768];
      snprintf(entry, sizeof entry, "%s/%s", path, e->d_name);
      if (unlink(entry) != 0)
        rmdir(entry);
    }
    closedir(dir);
  }
}

static int setup(void **state) {
  (void)state;
  snprintf(scratch_dir, sizeof scratch_dir, "/tmp/ocl_reduce_kernels_XXXXXX");
  return mkdtemp(scratch_dir) ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  remove_sources();
  rmdir(scratch_dir);
  unsetenv("OCL_REDUCE_KERNEL_DIR");
  return 0;
}

/* Sums 1..100 as i32 in a fresh context that reads kernels from `dir` (NULL: embedded). */
static ocl_reduce_status sum_with(const char *dir, int32_t *result, char *message, size_t size) {
  if (dir)
    setenv("OCL_REDUCE_KERNEL_DIR", dir, 1);
  else
    unsetenv("OCL_REDUCE_KERNEL_DIR");
  ocl_reduce_context *ctx = test_context_create();
  assert_non_null(ctx);
  int32_t data[100];
  for (int i = 0; i < 100; i++)
    data[i] = i + 1;
  ocl_reduce_status s =
      ocl_reduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_I32, data, 100, result, sizeof *result);
  snprintf(message, size, "%s", ocl_reduce_last_error(ctx));
  ocl_reduce_context_destroy(ctx);
  unsetenv("OCL_REDUCE_KERNEL_DIR");
  return s;
}

static void test_kernel_dir_edits_take_effect_without_rebuilding(void **state) {
  (void)state;
  char message[16384];
  int32_t result = 0;
  assert_int_equal(sum_with(NULL, &result, message, sizeof message), OCL_REDUCE_OK);
  assert_int_equal(result, 5050);
  copy_sources(NULL, NULL, NULL);
  assert_int_equal(sum_with(scratch_dir, &result, message, sizeof message), OCL_REDUCE_OK);
  assert_int_equal(result, 5050);
  /* An operator that adds one per combine: the files on disk, not the embedded copies, ran. Summing
   * 100 elements takes at least 99 combines (on wide work-groups, thousands). */
  copy_sources(
      "lib/orx_apply.cl",
      "#define ORX_APPLY_SUM(a, b, AS_BITS, FROM_BITS) FROM_BITS(AS_BITS(a) + AS_BITS(b))",
      "#define ORX_APPLY_SUM(a, b, AS_BITS, FROM_BITS) FROM_BITS(AS_BITS(a) + AS_BITS(b) + "
      "1u)");
  assert_int_equal(sum_with(scratch_dir, &result, message, sizeof message), OCL_REDUCE_OK);
  assert_true(result >= 5050 + 99);
}

/* The library's expander does not evaluate conditionals: had it kept only the first include of
 * lib/orx_ops.cl, under `#if 0`, every later one would have expanded to nothing and the kernel
 * would not have compiled. */
static void test_include_under_a_false_condition_leaves_later_includes(void **state) {
  (void)state;
  char message[16384];
  int32_t result = 0;
  copy_sources("kernels/reduce_all.cl", "#include \"lib/orx_finish.cl\"",
               "#if 0 /* never compiled */\n#include \"lib/orx_ops.cl\"\n#endif\n"
               "#include \"lib/orx_finish.cl\"");
  const ocl_reduce_status s = sum_with(scratch_dir, &result, message, sizeof message);
  if (s != OCL_REDUCE_OK)
    fail_msg("%s: %s", ocl_reduce_status_name(s), message);
  assert_int_equal(result, 5050);
}

static void test_missing_kernel_file_is_named(void **state) {
  (void)state;
  remove_sources();
  char message[16384];
  int32_t result = 77;
  assert_int_equal(sum_with(scratch_dir, &result, message, sizeof message),
                   OCL_REDUCE_ERROR_KERNEL_SOURCE);
  assert_int_equal(result, 77);
  /* The first file the backend reads: the contract. */
  assert_non_null(strstr(message, "OCL_REDUCE_KERNEL_DIR: cannot open"));
  assert_non_null(strstr(message, scratch_dir));
}

static void test_kernel_that_does_not_compile_reports_the_build_log(void **state) {
  (void)state;
  copy_sources("kernels/reduce_all.cl", "__local uint is_last_group;",
               "__local uint is_last_group; this is not OpenCL C;");
  char message[16384];
  int32_t result = 77;
  assert_int_equal(sum_with(scratch_dir, &result, message, sizeof message), OCL_REDUCE_ERROR_BUILD);
  assert_int_equal(result, 77);
  assert_true(strstr(message, "clBuildProgram") || strstr(message, "nvrtcCompileProgram"));
  assert_non_null(strstr(message, "build log"));
  assert_non_null(strstr(strstr(message, "build log"), "error"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_kernel_dir_edits_take_effect_without_rebuilding),
      cmocka_unit_test(test_include_under_a_false_condition_leaves_later_includes),
      cmocka_unit_test(test_missing_kernel_file_is_named),
      cmocka_unit_test(test_kernel_that_does_not_compile_reports_the_build_log),
  };
  return TEST_RUN(tests, setup, teardown);
}
