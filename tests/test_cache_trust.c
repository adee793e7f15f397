/* =================================================================================================
 * test_cache_trust.c: the program cache against another user and a careless one (issue 54).
 * Another user's directory, or one others may write, is not used at all; an entry another cache
 * wrote (a max program planted under the sum's name) or one truncated is refused before a driver
 * sees it; links planted at an entry's or a lock's name are not followed; clearing and trimming
 * remove the cache's own names only, never through a linked directory; a FIFO at an entry's name
 * does not block; a relative XDG_CACHE_HOME is ignored; everything written is 0600. Where the
 * test runs as root (CI), the other user is real: a child process that drops to `nobody`.
 * ============================================================================================== */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/fixture.h"

enum { N = 4099, NOBODY = 65534 };
static int32_t data[N];
static int64_t want_sum;
static int32_t want_max;
static char root[256];

static void remove_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0)
    return;
  if (S_ISDIR(st.st_mode)) {
    DIR *d = opendir(path);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
        continue;
      char child[1024];
      snprintf(child, sizeof child, "%s/%s", path, e->d_name);
      remove_tree(child);
    }
    if (d)
      closedir(d);
    rmdir(path);
  } else {
    unlink(path);
  }
}

static int setup(void **state) {
  snprintf(root, sizeof root, "/tmp/ocl_reduce_test_cache_trust.%ld", (long)getpid());
  mkdir(root, 0700);
  if (test_setup(state))
    return -1;
  want_sum = 0;
  want_max = INT32_MIN;
  for (int i = 0; i < N; i++) {
    data[i] = (int32_t)(test_rng_next() % 2000001) - 1000000;
    want_sum += data[i];
    want_max = data[i] > want_max ? data[i] : want_max;
  }
  return 0;
}

static int teardown(void **state) {
  remove_tree(root);
  return test_teardown(state);
}

/* Programs a context built and loaded. */
typedef struct programs {
  uint64_t built, loaded;
} programs;

/* A context on `dir` (NULL: the environment's) that reduces `which` (0 sum, 1 max, 2 both) and
 * checks the results. */
static programs reduce_in(const char *dir, int which) {
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  opts.cache_dir = dir;
  ocl_reduce_context *ctx = NULL;
  assert_int_equal(ocl_reduce_context_create(&opts, &ctx), OCL_REDUCE_OK);
  if (which != 1) {
    int64_t wide[N], sum = 0;
    for (int i = 0; i < N; i++)
      wide[i] = data[i];
    assert_int_equal(ocl_reduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_I64, wide, N, &sum, sizeof sum),
                     OCL_REDUCE_OK);
    assert_true(sum == want_sum);
  }
  if (which != 0) {
    int32_t max = 0;
    assert_int_equal(ocl_reduce(ctx, OCL_REDUCE_MAX, OCL_REDUCE_I32, data, N, &max, sizeof max),
                     OCL_REDUCE_OK);
    assert_int_equal(max, want_max);
  }
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  assert_int_equal(ocl_reduce_context_query(ctx, &info), OCL_REDUCE_OK);
  ocl_reduce_context_destroy(ctx);
  return (programs){info.kernel_builds, info.programs_from_disk};
}

static void path_in(char *path, size_t size, const char *name) {
  snprintf(path, size, "%s/%s", root, name);
}

/* The entries (<64 hex>.bin) of dir: their count, and the first's path. */
static int entries_of(const char *dir, char *first, size_t size) {
  DIR *d = opendir(dir);
  int count = 0;
  for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
    const size_t n = strlen(e->d_name);
    if (n != 68 || strcmp(e->d_name + 64, ".bin") != 0)
      continue;
    if (count++ == 0 && first)
      snprintf(first, size, "%s/%s", dir, e->d_name);
  }
  if (d)
    closedir(d);
  return count;
}

static int exists(const char *path) {
  struct stat st;
  return lstat(path, &st) == 0;
}

static void copy_file(const char *from, const char *to) {
  FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
  assert_non_null(in);
  assert_non_null(out);
  for (int c; (c = fgetc(in)) != EOF;)
    fputc(c, out);
  fclose(in);
  assert_int_equal(fclose(out), 0);
}

/* ---- Directories that are not the user's own ------------------------------------------------ */

static void test_directories_others_can_write_are_not_used(void **state) {
  (void)state;
  char open_dir[512];
  path_in(open_dir, sizeof open_dir, "world-writable");
  assert_int_equal(mkdir(open_dir, 0700), 0);
  assert_int_equal(chmod(open_dir, 0777), 0);
  /* Right results, no program kept, nothing written there, and the reason reported. */
  assert_int_equal(reduce_in(open_dir, 2).loaded, 0);
  assert_int_equal(reduce_in(open_dir, 2).loaded, 0);
  assert_int_equal(entries_of(open_dir, NULL, 0), 0);
  char secret[600];
  snprintf(secret, sizeof secret, "%s/secret", open_dir);
  assert_false(exists(secret));
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  opts.cache_dir = open_dir;
  ocl_reduce_cache_info info = OCL_REDUCE_CACHE_INFO_INIT;
  assert_int_equal(ocl_reduce_cache_query(&opts, &info), OCL_REDUCE_OK);
  assert_non_null(strstr(info.unused_because, "writable by group or others"));
  expect_error(ocl_reduce_cache_clear(&opts, NULL), OCL_REDUCE_ERROR_INVALID_OPTION, NULL,
               "is not a directory the program cache uses");
  /* Below a directory others may write that is not sticky: not used either. */
  char below[600];
  snprintf(below, sizeof below, "%s/mine", open_dir);
  assert_int_equal(reduce_in(below, 0).loaded, 0);
  assert_int_equal(entries_of(below, NULL, 0), 0);
}

/* As root: a directory another user made (as an attacker would, ahead of the victim) is not
 * used, and what that user planted there is never loaded. */
static void test_another_users_directory_is_not_used(void **state) {
  (void)state;
  if (geteuid() != 0)
    skip();
  char shared[512], theirs[600], planted[700];
  /* A directory everyone may write, sticky as /tmp is: safe above a cache, as /tmp is. */
  path_in(shared, sizeof shared, "shared");
  assert_int_equal(mkdir(shared, 0700), 0);
  assert_int_equal(chmod(shared, 01777), 0);
  snprintf(theirs, sizeof theirs, "%s/theirs", shared);
  /* The other user: a child that drops to nobody and makes the directory and an "entry". */
  assert_int_equal(chmod(root, 0755), 0);
  const pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    if (setgid(NOBODY) != 0 || setuid(NOBODY) != 0 || mkdir(theirs, 0700) != 0)
      _exit(1);
    snprintf(planted, sizeof planted, "%s/%064d.bin", theirs, 0);
    FILE *f = fopen(planted, "wb");
    _exit(f && fputs("not a program", f) >= 0 && fclose(f) == 0 ? 0 : 2);
  }
  int status = 1;
  assert_int_equal(waitpid(child, &status, 0), child);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  assert_int_equal(chmod(root, 0700), 0);
  assert_int_equal(reduce_in(theirs, 2).loaded, 0);
  assert_int_equal(entries_of(theirs, NULL, 0), 1); /* only the planted file */
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  opts.cache_dir = theirs;
  ocl_reduce_cache_info info = OCL_REDUCE_CACHE_INFO_INIT;
  assert_int_equal(ocl_reduce_cache_query(&opts, &info), OCL_REDUCE_OK);
  assert_non_null(strstr(info.unused_because, "owned by another user"));
  /* Nor can that user write into the victim's cache. */
  char mine[512];
  path_in(mine, sizeof mine, "mine");
  reduce_in(mine, 0);
  const pid_t writer = fork();
  assert_true(writer >= 0);
  if (writer == 0) {
    char into[600];
    snprintf(into, sizeof into, "%s/%064d.bin", mine, 1);
    if (setgid(NOBODY) != 0 || setuid(NOBODY) != 0)
      _exit(1);
    _exit(open(into, O_WRONLY | O_CREAT, 0644) < 0 && errno == EACCES ? 0 : 3);
  }
  assert_int_equal(waitpid(writer, &status, 0), writer);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* ---- Entries nobody but this cache wrote ---------------------------------------------------- */

/* Another cache's max program under this cache's sum entry's name (the attack that once made a
 * sum return the maximum), an entry truncated with its header's size made to match, and a file
 * another user owns: each refused, rebuilt, and the sum right. */
static void test_foreign_and_truncated_entries_are_refused(void **state) {
  (void)state;
  char sums[512], maxes[512], sum_entry[700], max_entry[700];
  path_in(sums, sizeof sums, "sums");
  path_in(maxes, sizeof maxes, "maxes");
  const uint64_t built = reduce_in(sums, 0).built;
  assert_int_equal(reduce_in(maxes, 1).built, built);
  assert_int_equal(entries_of(sums, sum_entry, sizeof sum_entry), (int)built);
  assert_int_equal(entries_of(maxes, max_entry, sizeof max_entry), (int)built);
  for (int attack = 0; attack < 3; attack++) {
    if (attack == 0) {
      copy_file(max_entry, sum_entry);
    } else if (attack == 1) {
      /* A payload cut short, the header's size field (after magic and key) made to match. */
      struct stat st;
      assert_int_equal(stat(sum_entry, &st), 0);
      const uint64_t header = 8 + 32 + 8 + 32, payload = (uint64_t)st.st_size - header;
      assert_int_equal(truncate(sum_entry, (off_t)(header + payload / 2)), 0);
      const uint64_t half = payload / 2;
      const int fd = open(sum_entry, O_WRONLY);
      assert_true(fd >= 0);
      assert_int_equal(pwrite(fd, &half, sizeof half, 8 + 32), (ssize_t)sizeof half);
      close(fd);
    } else {
      if (geteuid() != 0)
        continue;
      assert_int_equal(chown(sum_entry, NOBODY, NOBODY), 0);
    }
    const programs p = reduce_in(sums, 0); /* asserts the sum */
    assert_int_equal(p.loaded, built - 1);
    assert_int_equal(reduce_in(sums, 0).loaded, built); /* rewritten, the cache's own again */
  }
}

/* ---- Links, FIFOs, names -------------------------------------------------------------------- */

static void test_links_and_fifos_are_not_followed(void **state) {
  (void)state;
  char dir[512], entry[700], victim[600], lock[720];
  path_in(dir, sizeof dir, "links");
  path_in(victim, sizeof victim, "victim.txt");
  FILE *f = fopen(victim, "w");
  assert_non_null(f);
  fputs("the victim's own file\n", f);
  fclose(f);
  const uint64_t built = reduce_in(dir, 0).built;
  assert_int_equal(entries_of(dir, entry, sizeof entry), (int)built);
  /* A link at the entry's name and one at its lock's: neither followed, the victim untouched, the
   * entry rebuilt as a regular file. */
  snprintf(lock, sizeof lock, "%s.lock", entry);
  assert_int_equal(unlink(entry), 0);
  assert_int_equal(symlink(victim, entry), 0);
  assert_int_equal(symlink(victim, lock), 0);
  assert_int_equal(reduce_in(dir, 0).loaded, built - 1);
  f = fopen(victim, "r");
  char line[64] = "";
  assert_non_null(fgets(line, sizeof line, f));
  fclose(f);
  assert_string_equal(line, "the victim's own file\n");
  struct stat st;
  assert_int_equal(lstat(entry, &st), 0);
  assert_true(S_ISREG(st.st_mode));
  assert_int_equal(st.st_mode & 0777, 0600);
  unlink(lock);
  /* A FIFO at the entry's name: the context neither blocks on it nor loads it. */
  assert_int_equal(unlink(entry), 0);
  assert_int_equal(mkfifo(entry, 0600), 0);
  alarm(120); /* a hang fails the test instead of CI's job */
  assert_int_equal(reduce_in(dir, 0).loaded, built - 1);
  alarm(0);
  /* The secret is 0600 too. */
  char secret[600];
  snprintf(secret, sizeof secret, "%s/secret", dir);
  assert_int_equal(stat(secret, &st), 0);
  assert_int_equal(st.st_mode & 0777, 0600);
}

static void test_clearing_removes_only_the_caches_names(void **state) {
  (void)state;
  char dir[512], elsewhere[512], path[700];
  path_in(dir, sizeof dir, "clear");
  path_in(elsewhere, sizeof elsewhere, "elsewhere");
  assert_int_equal(mkdir(elsewhere, 0700), 0);
  const uint64_t built = reduce_in(dir, 2).built;
  /* A user's files that look like the cache's, and a linked directory full of entries' names. */
  static const char *const theirs[] = {"firmware.bin", "notes.tmp", "x.lock", "ABCD.bin"};
  for (size_t i = 0; i < sizeof theirs / sizeof *theirs; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, theirs[i]);
    fclose(fopen(path, "w"));
  }
  snprintf(path, sizeof path, "%s/%064d.bin", elsewhere, 5);
  fclose(fopen(path, "w"));
  snprintf(path, sizeof path, "%s/linked", dir);
  assert_int_equal(symlink(elsewhere, path), 0);
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  opts.cache_dir = dir;
  uint64_t removed = 0;
  assert_int_equal(ocl_reduce_cache_clear(&opts, &removed), OCL_REDUCE_OK);
  assert_true(removed == built);
  assert_int_equal(entries_of(dir, NULL, 0), 0);
  for (size_t i = 0; i < sizeof theirs / sizeof *theirs; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, theirs[i]);
    assert_true(exists(path));
  }
  assert_int_equal(entries_of(elsewhere, NULL, 0), 1);
  /* The cache directory itself a link: the cache follows it only to check the real directory,
   * and clearing through it removes nothing but entries. */
  char link_dir[512];
  path_in(link_dir, sizeof link_dir, "via-link");
  assert_int_equal(symlink(elsewhere, link_dir), 0);
  opts.cache_dir = link_dir;
  assert_int_equal(ocl_reduce_cache_clear(&opts, &removed), OCL_REDUCE_OK);
  assert_int_equal(entries_of(elsewhere, NULL, 0), 0); /* a name of the cache's, in its real dir */
}

static void test_relative_xdg_cache_home_is_ignored(void **state) {
  (void)state;
  char home[512], expected[600], cwd[1024];
  path_in(home, sizeof home, "home");
  assert_int_equal(mkdir(home, 0700), 0);
  snprintf(expected, sizeof expected, "%s/.cache/ocl_reduce", home);
  assert_non_null(getcwd(cwd, sizeof cwd));
  assert_int_equal(chdir(root), 0);
  setenv("XDG_CACHE_HOME", "relative-cache", 1);
  setenv("HOME", home, 1);
  unsetenv("OCL_REDUCE_CACHE_DIR");
  const uint64_t built = reduce_in(NULL, 0).built;
  assert_false(exists("relative-cache"));
  assert_int_equal(entries_of(expected, NULL, 0), (int)built);
  unsetenv("XDG_CACHE_HOME");
  assert_int_equal(chdir(cwd), 0);
}

int main(void) {
  /* Device programs only (the calling thread's host plans build none), in the directories each
   * test names; PoCL's too (binaries=1: the library leaves them to PoCL's own cache otherwise). */
  test_policy_prepend("host=off,binaries=1");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_directories_others_can_write_are_not_used),
      cmocka_unit_test(test_another_users_directory_is_not_used),
      cmocka_unit_test(test_foreign_and_truncated_entries_are_refused),
      cmocka_unit_test(test_links_and_fifos_are_not_followed),
      cmocka_unit_test(test_clearing_removes_only_the_caches_names),
      cmocka_unit_test(test_relative_xdg_cache_home_is_ignored),
  };
  return TEST_RUN(tests, setup, teardown);
}
