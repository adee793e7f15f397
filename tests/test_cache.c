/* =================================================================================================
 * test_cache.c: the disk cache of built programs (OCL_REDUCE_CACHE_DIR, options.cache_dir). A
 * second context loads what the first built, with the same results; every kind of damaged entry
 * (truncated, a flipped byte, another program's, garbage, empty) is ignored, rebuilt and
 * rewritten; "off" writes nothing; a directory that cannot be created costs nothing but speed;
 * the default location follows XDG_CACHE_HOME; processes filling one cache at the same moment
 * leave it whole and build each program once between them; the cache keeps to its limit by
 * removing the least recently used entries (and a killed writer's old temporaries and locks);
 * ocl_reduce_cache_query / _clear see and empty it; and the faults of real disks: an entry that
 * cannot be read, a full disk, and a writer killed by SIGKILL in the middle of writing an entry.
 * ============================================================================================== */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "support/fixture.h"

enum { N = 10007 };
static int32_t data[N];
static int64_t expected_sum;
static int32_t expected_max;
static char root[256]; /* this run's directory, removed at the end */

static void remove_tree(const char *path) {
  DIR *d = opendir(path);
  if (d) {
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
        continue;
      char child[1024];
      snprintf(child, sizeof child, "%s/%s", path, e->d_name);
      remove_tree(child);
    }
    closedir(d);
    rmdir(path);
  } else {
    unlink(path);
  }
}

static int exists(const char *path) { return access(path, F_OK) == 0; }

/* The files of a cache directory in readdir order, entries and temporaries but not its secret
 * (with only_entries, the .bin entries alone): their count, the names of the first `capacity` (when names; names of 64
 * bytes or more are left out), and their bytes in *bytes (when bytes). */
static int list_files(const char *dir, int only_entries, char names[][128], int capacity,
                      uint64_t *bytes) {
  DIR *d = opendir(dir);
  int count = 0;
  if (bytes)
    *bytes = 0;
  if (!d)
    return 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    const size_t length = strlen(e->d_name);
    if (e->d_name[0] == '.' || strcmp(e->d_name, "secret") == 0 ||
        (only_entries && (length < 4 || strcmp(e->d_name + length - 4, ".bin") != 0)))
      continue;
    if (bytes) {
      char path[1024];
      struct stat st;
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      assert_int_equal(stat(path, &st), 0);
      *bytes += (uint64_t)st.st_size;
    }
    if (names && count < capacity && length < 128)
      memcpy(names[count], e->d_name, length + 1);
    count++;
  }
  closedir(d);
  return count;
}

/* The files of a cache directory: their count, and the path of the k-th. */
static int entries(const char *dir, int k, char *path, size_t size) {
  char names[128][128];
  const int count = list_files(dir, 0, names, 128, NULL);
  if (path && k < count && k < 128)
    snprintf(path, size, "%s/%.127s", dir, names[k]);
  return count;
}

static ocl_reduce_context *open_cached(const char *dir) {
  setenv("OCL_REDUCE_CACHE_DIR", dir, 1);
  ocl_reduce_context *ctx = test_context_create();
  assert_non_null(ctx);
  return ctx;
}

/* How many programs a context built in all (the two reductions', and on the subgroup path the
 * query's), and how many of them it loaded from disk. */
typedef struct programs {
  uint64_t built, loaded;
} programs;

/* Reduces with the two operators the tests use, checks the results, and counts the programs. */
static programs reduce_and_count(ocl_reduce_context *ctx) {
  int64_t sum = 0;
  int32_t max = 0;
  assert_int_equal(ocl_reduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_I64, data, N / 2, &sum, sizeof sum),
                   OCL_REDUCE_OK);
  assert_int_equal(ocl_reduce(ctx, OCL_REDUCE_MAX, OCL_REDUCE_I32, data, N, &max, sizeof max),
                   OCL_REDUCE_OK);
  assert_true(sum == expected_sum);
  assert_int_equal(max, expected_max);
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  assert_int_equal(ocl_reduce_context_query(ctx, &info), OCL_REDUCE_OK);
  assert_true(info.kernel_builds >= 2);
  return (programs){info.kernel_builds, info.programs_from_disk};
}

static programs fresh_context(const char *dir) {
  ocl_reduce_context *ctx = open_cached(dir);
  const programs p = reduce_and_count(ctx);
  ocl_reduce_context_destroy(ctx);
  return p;
}

static void make_dir(char *dir, size_t size, const char *name) {
  snprintf(dir, size, "%s/%s", root, name);
}

/* The input and its results, from a seed (the filling processes make the same from it). */
static void make_data(uint64_t seed) {
  expected_max = INT32_MIN;
  for (int i = 0; i < N; i++) {
    seed = seed * 6364136223846793005u + 1442695040888963407u;
    data[i] = (int32_t)((seed >> 33) % 2000001) - 1000000;
    expected_max = data[i] > expected_max ? data[i] : expected_max;
  }
  expected_sum = 0;
  for (int i = 0; i + 1 < N; i += 2) {
    int64_t element;
    memcpy(&element, &data[i], sizeof element);
    expected_sum += element;
  }
}

static uint64_t seed;

static int setup(void **state) {
  /* The limit as a user's process has it: the suite's shared cache has a larger one
   * (tests/discover_tests.cmake.in), and these tests set the variable themselves. */
  unsetenv("OCL_REDUCE_CACHE_MAX");
  snprintf(root, sizeof root, "/tmp/ocl_reduce_test_cache.%ld", (long)getpid());
  mkdir(root, 0700);
  if (test_setup(state))
    return -1;
  seed = test_rng_next();
  make_data(seed);
  return 0;
}

static int teardown(void **state) {
  remove_tree(root);
  unsetenv("OCL_REDUCE_CACHE_DIR");
  return test_teardown(state);
}

static void test_second_context_loads_what_the_first_built(void **state) {
  (void)state;
  char dir[512];
  make_dir(dir, sizeof dir, "second/nested"); /* parents are created */
  const programs first = fresh_context(dir);
  assert_int_equal(first.loaded, 0);
  assert_int_equal(entries(dir, 0, NULL, 0), first.built);
  const programs second = fresh_context(dir);
  assert_int_equal(second.built, first.built);
  assert_int_equal(second.loaded, first.built);
  assert_int_equal(entries(dir, 0, NULL, 0), first.built);
}

/* PoCL with its own kernel cache on (POCL_KERNEL_CACHE unset) has its programs left to that cache:
 * reading a binary back costs PoCL a compile of every kernel (src/planner/plan_path.c). Every
 * other implementation, and PoCL with its cache off, have them in the library's. The planner's
 * choice (the policy without binaries=1, which main sets for the other tests), then PoCL's cache
 * off. */
static void test_pocl_keeps_its_own_programs(void **state) {
  (void)state;
  static const char ours[] = "host=off,binaries=1"; /* main's, before the environment's */
  const char *kept = getenv("OCL_REDUCE_POLICY");
  assert_non_null(kept);
  assert_int_equal(strncmp(kept, ours, strlen(ours)), 0);
  char policy[512], planners[512];
  snprintf(policy, sizeof policy, "%s", kept);
  snprintf(planners, sizeof planners, "host=off%s", kept + strlen(ours));
  setenv("OCL_REDUCE_POLICY", planners, 1);
  for (int pocl_cache_on = 1; pocl_cache_on >= 0; pocl_cache_on--) {
    char dir[512];
    make_dir(dir, sizeof dir, pocl_cache_on ? "pocl-cache-on" : "pocl-cache-off");
    if (!pocl_cache_on)
      setenv("POCL_KERNEL_CACHE", "0", 1);
    ocl_reduce_context *ctx = open_cached(dir);
    ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
    assert_int_equal(ocl_reduce_context_query(ctx, &info), OCL_REDUCE_OK);
    const int left_to_pocl =
        pocl_cache_on && strstr(info.platform_name, "Portable Computing Language") != NULL;
    const programs first = reduce_and_count(ctx);
    ocl_reduce_context_destroy(ctx);
    assert_int_equal(entries(dir, 0, NULL, 0), left_to_pocl ? 0 : first.built);
    const programs second = fresh_context(dir);
    assert_int_equal(second.loaded, left_to_pocl ? 0 : first.built);
  }
  unsetenv("POCL_KERNEL_CACHE");
  setenv("OCL_REDUCE_POLICY", policy, 1);
}

/* Damages entry k of dir in one of several ways. */
static void damage(const char *dir, int k, int how) {
  char path[1024], other[1024];
  entries(dir, k, path, sizeof path);
  entries(dir, 1 - k, other, sizeof other);
  FILE *f = fopen(path, "r+b");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  const long size = ftell(f);
  switch (how) {
  case 0: /* truncated to half */
    fclose(f);
    assert_int_equal(truncate(path, size / 2), 0);
    return;
  case 1: /* one byte of the payload flipped */
    fseek(f, size - 1, SEEK_SET);
    {
      const int c = fgetc(f);
      fseek(f, size - 1, SEEK_SET);
      fputc(c ^ 0x40, f);
    }
    break;
  case 2: /* garbage of the same size */
    fseek(f, 0, SEEK_SET);
    for (long i = 0; i < size; i++)
      fputc((int)(i * 37 + 11) & 0xff, f);
    break;
  case 3: /* empty */
    fclose(f);
    assert_int_equal(truncate(path, 0), 0);
    return;
  default: { /* another program's entry under this name */
    fclose(f);
    FILE *from = fopen(other, "rb"), *to = fopen(path, "wb");
    assert_non_null(from);
    assert_non_null(to);
    for (int c; (c = fgetc(from)) != EOF;)
      fputc(c, to);
    fclose(from);
    fclose(to);
    return;
  }
  }
  fclose(f);
}

static void test_damaged_entries_are_rebuilt(void **state) {
  (void)state;
  for (int how = 0; how < 5; how++) {
    char dir[512], name[32];
    snprintf(name, sizeof name, "damaged-%d", how);
    make_dir(dir, sizeof dir, name);
    const uint64_t built = fresh_context(dir).built;
    damage(dir, 0, how);
    /* The damaged entry is built again (and the others loaded), then rewritten whole. */
    assert_int_equal(fresh_context(dir).loaded, built - 1);
    assert_int_equal(fresh_context(dir).loaded, built);
    assert_int_equal(entries(dir, 0, NULL, 0), built);
  }
}

static void test_off_and_unwritable_directories(void **state) {
  (void)state;
  char dir[512];
  make_dir(dir, sizeof dir, "off-env");
  /* The option wins over the environment: "off" writes nothing there. */
  setenv("OCL_REDUCE_CACHE_DIR", dir, 1);
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  opts.cache_dir = "OFF";
  ocl_reduce_context *ctx = NULL;
  assert_int_equal(ocl_reduce_context_create(&opts, &ctx), OCL_REDUCE_OK);
  assert_int_equal(reduce_and_count(ctx).loaded, 0);
  ocl_reduce_context_destroy(ctx);
  assert_int_equal(entries(dir, 0, NULL, 0), 0);
  /* Below a regular file no directory can be made: the reductions still work. */
  char file[512], below[600];
  make_dir(file, sizeof file, "a-file");
  FILE *f = fopen(file, "w");
  assert_non_null(f);
  fclose(f);
  snprintf(below, sizeof below, "%s/cache", file);
  assert_int_equal(fresh_context(below).loaded, 0);
  assert_int_equal(fresh_context(below).loaded, 0);
  /* A path too long to keep is refused by name. */
  char longer[2100];
  memset(longer, 'x', sizeof longer - 1);
  longer[sizeof longer - 1] = '\0';
  opts.cache_dir = longer;
  ctx = (ocl_reduce_context *)(uintptr_t)1;
  expect_error(ocl_reduce_context_create(&opts, &ctx), OCL_REDUCE_ERROR_INVALID_OPTION, NULL,
               "options.cache_dir");
  assert_null(ctx);
}

static void test_default_location_follows_xdg(void **state) {
  (void)state;
  char xdg[512], dir[600];
  make_dir(xdg, sizeof xdg, "xdg");
  snprintf(dir, sizeof dir, "%s/ocl_reduce", xdg);
  unsetenv("OCL_REDUCE_CACHE_DIR");
  setenv("XDG_CACHE_HOME", xdg, 1);
  ocl_reduce_context *ctx = test_context_create();
  assert_non_null(ctx);
  const uint64_t built = reduce_and_count(ctx).built;
  ocl_reduce_context_destroy(ctx);
  unsetenv("XDG_CACHE_HOME");
  assert_int_equal(entries(dir, 0, NULL, 0), built);
}

/* One of the processes filling a cache (this program run as "fill DIR SEED FD COUNTS"): waits
 * until the descriptor FD reaches its end (the parent closed it: every process starts at once),
 * then reduces through the cache and writes its programs built and loaded (a `programs`, in one
 * write: atomic on a pipe) to the descriptor COUNTS. Exit status 0 when the results are right. */
extern char **environ;
/* A copy of the environment as the process began, before any OpenCL implementation ran: the
 * Khronos ICD loader of the H200 machine (ocl-icd 2.3.2) cuts OCL_ICD_FILENAMES="a.so:b.so" to
 * "a.so" in place while it reads it, so children given this process's environment saw PoCL
 * only. The library now puts the variable back (test_the_icd_list_stays_for_children checks
 * it); the filling processes start from this copy all the same. */
static char **initial_environment;

static int fill(const char *dir, const char *seed_text, const char *fd_text,
                const char *counts_text) {
  make_data(strtoull(seed_text, NULL, 10));
  char byte;
  if (read(atoi(fd_text), &byte, 1) != 0)
    return 2;
  setenv("OCL_REDUCE_CACHE_DIR", dir, 1);
  ocl_reduce_context *ctx = NULL;
  if (ocl_reduce_context_create(NULL, &ctx) != OCL_REDUCE_OK) {
    fprintf(stderr, "fill: %s\n", ocl_reduce_last_error(NULL));
    return 3;
  }
  int64_t sum = 0;
  int32_t max = 0;
  const int ok =
      ocl_reduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_I64, data, N / 2, &sum, sizeof sum) ==
          OCL_REDUCE_OK &&
      ocl_reduce(ctx, OCL_REDUCE_MAX, OCL_REDUCE_I32, data, N, &max, sizeof max) == OCL_REDUCE_OK &&
      sum == expected_sum && max == expected_max;
  /* The query too, as reduce_and_count does: on the subgroup path it builds a program. */
  ocl_reduce_context_info info = OCL_REDUCE_CONTEXT_INFO_INIT;
  ocl_reduce_context_query(ctx, &info);
  if (!ok)
    fprintf(stderr, "fill: %s\n", ocl_reduce_last_error(ctx));
  ocl_reduce_context_destroy(ctx);
  const programs counts = {info.kernel_builds, info.programs_from_disk};
  if (write(atoi(counts_text), &counts, sizeof counts) != (ssize_t)sizeof counts)
    return 4;
  return ok ? 0 : 1;
}

/* Processes filling one empty cache at the same moment (fresh ones, started through exec: a fork
 * of this process would inherit an OpenCL implementation whose threads did not come along): each
 * gets correct results, between them they compile each program once (the others wait for its
 * build and load it), and a later context finds every entry whole. */
static void test_processes_fill_one_cache_at_once(void **state) {
  (void)state;
  enum { PROCESSES = 6 };
  char dir[512], seed_text[32], fd_text[16], counts_text[16];
  make_dir(dir, sizeof dir, "shared");
  int go[2], counts[2];
  assert_int_equal(pipe(go), 0);
  assert_int_equal(pipe(counts), 0);
  assert_int_equal(fcntl(counts[0], F_SETFD, FD_CLOEXEC), 0);
  /* The children keep the read end; the write end is closed in them at exec, so that the
   * parent's close is the last one and every child reads the end at once. */
  assert_int_equal(fcntl(go[1], F_SETFD, FD_CLOEXEC), 0);
  snprintf(seed_text, sizeof seed_text, "%llu", (unsigned long long)seed);
  snprintf(fd_text, sizeof fd_text, "%d", go[0]);
  snprintf(counts_text, sizeof counts_text, "%d", counts[1]);
  pid_t children[PROCESSES];
  fflush(NULL);
  /* Fresh processes: posix_spawn (no atfork handlers of this process's OpenCL implementation
   * run), default signal handling, and the environment the test began with. */
  char *child_argv[] = {"test_cache", "fill", dir, seed_text, fd_text, counts_text, NULL};
  posix_spawnattr_t fresh;
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  assert_int_equal(posix_spawnattr_init(&fresh), 0);
  assert_int_equal(posix_spawnattr_setsigmask(&fresh, &none), 0);
  assert_int_equal(posix_spawnattr_setsigdefault(&fresh, &all), 0);
  assert_int_equal(
      posix_spawnattr_setflags(&fresh, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF), 0);
  for (int p = 0; p < PROCESSES; p++)
    assert_int_equal(
        posix_spawn(&children[p], "/proc/self/exe", NULL, &fresh, child_argv,
                    initial_environment),
        0);
  posix_spawnattr_destroy(&fresh);
  close(go[0]);
  close(go[1]); /* releases every process at once */
  close(counts[1]);
  for (int p = 0; p < PROCESSES; p++) {
    int status = 0;
    assert_int_equal(waitpid(children[p], &status, 0), children[p]);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
  }
  programs each[PROCESSES];
  assert_int_equal(read(counts[0], each, sizeof each), (ssize_t)sizeof each);
  close(counts[0]);
  const programs after = fresh_context(dir);
  assert_int_equal(after.loaded, after.built);
  assert_int_equal(entries(dir, 0, NULL, 0), after.built); /* no temporaries or locks left */
  uint64_t compiled = 0;
  for (int p = 0; p < PROCESSES; p++) {
    assert_true(each[p].built == after.built);
    compiled += each[p].built - each[p].loaded;
  }
  if (compiled != after.built)
    fail_msg("%d processes compiled %llu programs between them, of %llu different ones", PROCESSES,
             (unsigned long long)compiled, (unsigned long long)after.built);
}

/* ---- Faults of real disks -------------------------------------------------------------------- */

/* Entries that cannot be read: one replaced by a directory (unreadable as a file even to root,
 * which CI is), and one without read permission where the test is not root. Each is built from
 * source with right results, every time, and the cache keeps working around it. */
static void test_unreadable_entries_are_rebuilt(void **state) {
  (void)state;
  char dir[512], path[1024];
  make_dir(dir, sizeof dir, "unreadable");
  const uint64_t built = fresh_context(dir).built;
  entries(dir, 0, path, sizeof path);
  assert_int_equal(unlink(path), 0);
  assert_int_equal(mkdir(path, 0700), 0);
  int unreadable = 1;
  if (geteuid() != 0) {
    entries(dir, 1, path, sizeof path);
    assert_int_equal(chmod(path, 0), 0);
    unreadable++;
  }
  for (int round = 0; round < 2; round++) {
    const programs p = fresh_context(dir);
    assert_int_equal(p.built, built);
    assert_int_equal(p.loaded, built - (uint64_t)unreadable);
  }
  assert_int_equal(entries(dir, 0, NULL, 0), built); /* no temporaries left */
}

/* The disk of one directory, as this process sees it. The library flushes an entry to the disk
 * (fsync) before it renames it into place, and this program's fsync comes first for the library
 * (symbol interposition; exported by name, as the project hides symbols by default): for a file
 * under `faulty_dir` it reports the disk full (ENOSPC, as a filesystem with delayed allocation does
 * at that point) or kills the process there (SIGKILL), with the entry's bytes written and not yet
 * renamed. A real full filesystem or a kill from outside at that instant would need privileges (a
 * mount) or luck; every other file of the process (the OpenCL implementation's own cache) is
 * written as usual. */
typedef enum disk_fault { DISK_FINE, DISK_FULL, DISK_KILLS } disk_fault;
static disk_fault fault;
static char faulty_dir[512];

__attribute__((visibility("default"))) int fsync(int fd) {
  char link[64], target[1024];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const ssize_t length = readlink(link, target, sizeof target - 1);
  const size_t dir_length = strlen(faulty_dir);
  if (fault != DISK_FINE && length > 0 && (size_t)length > dir_length &&
      !strncmp(target, faulty_dir, dir_length) && target[dir_length] == '/') {
    if (fault == DISK_KILLS)
      kill(getpid(), SIGKILL);
    errno = ENOSPC;
    return -1;
  }
  return (int)syscall(SYS_fsync, fd);
}

/* A full disk: the reductions are right, no partial entry or temporary stays, and once there is
 * room again the next context writes every entry. */
static void test_full_disk_keeps_nothing_partial(void **state) {
  (void)state;
  make_dir(faulty_dir, sizeof faulty_dir, "full");
  fault = DISK_FULL;
  const programs p = fresh_context(faulty_dir);
  fault = DISK_FINE;
  assert_int_equal(p.loaded, 0);
  assert_int_equal(entries(faulty_dir, 0, NULL, 0), 0);
  assert_int_equal(fresh_context(faulty_dir).loaded, 0);
  assert_int_equal(entries(faulty_dir, 0, NULL, 0), p.built);
  assert_int_equal(fresh_context(faulty_dir).loaded, p.built);
}

/* This program run as "killed DIR SEED": a writer killed in the middle of its first entry. */
static int killed_writer(const char *dir, const char *seed_text) {
  make_data(strtoull(seed_text, NULL, 10));
  snprintf(faulty_dir, sizeof faulty_dir, "%s", dir);
  fault = DISK_KILLS;
  setenv("OCL_REDUCE_CACHE_DIR", dir, 1);
  ocl_reduce_context *ctx = NULL;
  int64_t sum = 0;
  if (ocl_reduce_context_create(NULL, &ctx) == OCL_REDUCE_OK)
    ocl_reduce(ctx, OCL_REDUCE_SUM, OCL_REDUCE_I64, data, N / 2, &sum, sizeof sum);
  return 3; /* not killed */
}

/* The killed writer leaves a temporary, the lock it held while building, and no entry; later
 * contexts do not wait for the lock (its holder is gone), reduce right, build what it did not
 * keep (removing the lock), never read the temporary, and remove it once it is an hour old. */
static void test_writer_killed_mid_write(void **state) {
  (void)state;
  char dir[512], seed_text[32], files[2][1024];
  make_dir(dir, sizeof dir, "killed");
  snprintf(seed_text, sizeof seed_text, "%llu", (unsigned long long)seed);
  char *child_argv[] = {"test_cache", "killed", dir, seed_text, NULL};
  pid_t child;
  fflush(NULL);
  assert_int_equal(
      posix_spawn(&child, "/proc/self/exe", NULL, NULL, child_argv, initial_environment), 0);
  int status = 0;
  assert_int_equal(waitpid(child, &status, 0), child);
  assert_true(WIFSIGNALED(status));
  assert_int_equal(WTERMSIG(status), SIGKILL);
  assert_int_equal(entries(dir, 0, files[0], sizeof files[0]), 2);
  entries(dir, 1, files[1], sizeof files[1]);
  const int temporary_first = strstr(files[0], ".tmp") != NULL;
  const char *temporary = files[!temporary_first], *lock = files[temporary_first];
  assert_non_null(strstr(temporary, ".tmp"));
  assert_non_null(strstr(lock, ".bin.lock"));
  const time_t before = time(NULL);
  const programs p = fresh_context(dir);
  assert_true(time(NULL) - before < 60); /* a lock still held would keep it two minutes */
  assert_int_equal(p.loaded, 0);
  assert_false(exists(lock));
  assert_true(exists(temporary)); /* young: it may be another process's write */
  const struct timespec hours_ago[2] = {{time(NULL) - 7200, 0}, {time(NULL) - 7200, 0}};
  assert_int_equal(utimensat(AT_FDCWD, temporary, hours_ago, 0), 0);
  uint32_t min = 0; /* a new entry's write trims the directory */
  ocl_reduce_context *ctx = open_cached(dir);
  assert_int_equal(ocl_reduce(ctx, OCL_REDUCE_MIN, OCL_REDUCE_U32, data, N, &min, sizeof min),
                   OCL_REDUCE_OK);
  ocl_reduce_context_destroy(ctx);
  assert_false(exists(temporary));
  assert_int_equal(fresh_context(dir).loaded, p.built);
}

/* ---- The limit ------------------------------------------------------------------------------ */

static void write_file(const char *path, size_t bytes, time_t modified) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  for (size_t i = 0; i < bytes; i++)
    fputc((int)(i & 0xff), f);
  assert_int_equal(fclose(f), 0);
  const struct timespec times[2] = {{modified, 0}, {modified, 0}};
  assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
}

/* Past writes, oldest first: three 4 KiB stand-ins older than every real entry, and the real
 * entries an hour ago in list order. A build under a limit that holds the real entries and one
 * stand-in removes the stand-ins, then real entries oldest first, never the one it wrote; and a
 * load marks an entry used. */
static void test_cache_keeps_to_its_limit(void **state) {
  (void)state;
  char dir[512], names[64][128], path[1024];
  make_dir(dir, sizeof dir, "bounded");
  fresh_context(dir);
  uint64_t real_bytes = 0;
  const int real = list_files(dir, 1, names, 64, &real_bytes);
  assert_true(real >= 2 && real <= 64);
  const time_t now = time(NULL);
  for (int i = 0; i < real; i++) {
    snprintf(path, sizeof path, "%s/%.127s", dir, names[i]);
    const struct timespec times[2] = {{now - 3600 + i, 0}, {now - 3600 + i, 0}};
    assert_int_equal(utimensat(AT_FDCWD, path, times, 0), 0);
  }
  char stand_in[3][1024];
  for (int k = 0; k < 3; k++) {
    snprintf(stand_in[k], sizeof stand_in[k], "%s/%064d.bin", dir, k);
    write_file(stand_in[k], 4096, now - 86400 + k);
  }
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  opts.cache_dir = dir;
  opts.cache_max_bytes = real_bytes + 4096 + 100;
  ocl_reduce_context *ctx = NULL;
  assert_int_equal(ocl_reduce_context_create(&opts, &ctx), OCL_REDUCE_OK);
  uint32_t min = 0; /* a program the two reductions did not need: one new entry */
  assert_int_equal(ocl_reduce(ctx, OCL_REDUCE_MIN, OCL_REDUCE_U32, data, N, &min, sizeof min),
                   OCL_REDUCE_OK);
  ocl_reduce_context_destroy(ctx);
  uint64_t bytes = 0;
  char after[80][128];
  const int left = list_files(dir, 1, after, 80, &bytes);
  assert_true(bytes <= opts.cache_max_bytes);
  for (int k = 0; k < 3; k++)
    assert_false(exists(stand_in[k]));
  /* The real entries that stayed are the most recently used ones: a suffix of the list. */
  int first_kept = real;
  for (int i = real - 1; i >= 0; i--) {
    snprintf(path, sizeof path, "%s/%.127s", dir, names[i]);
    if (!exists(path))
      break;
    first_kept = i;
  }
  for (int i = 0; i < first_kept; i++) {
    snprintf(path, sizeof path, "%s/%.127s", dir, names[i]);
    assert_false(exists(path));
  }
  /* And the new entry is there, unless it alone is over the limit. */
  assert_int_equal(left, real - first_kept + 1);
  /* A context that loads a kept entry marks it used. */
  if (first_kept < real) {
    snprintf(path, sizeof path, "%s/%.127s", dir, names[real - 1]);
    const programs p = fresh_context(dir);
    assert_true(p.loaded >= 1);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_true(st.st_mtime >= now - 5 || !exists(path));
  }
}

static void test_cache_query_clear_and_limits(void **state) {
  (void)state;
  char dir[512], names[64][128];
  make_dir(dir, sizeof dir, "query");
  fresh_context(dir);
  ocl_reduce_options opts = OCL_REDUCE_OPTIONS_INIT;
  opts.cache_dir = dir;
  ocl_reduce_cache_info info = OCL_REDUCE_CACHE_INFO_INIT;
  assert_int_equal(ocl_reduce_cache_query(&opts, &info), OCL_REDUCE_OK);
  uint64_t bytes = 0;
  const int count = list_files(dir, 1, names, 64, &bytes);
  assert_string_equal(info.dir, dir);
  assert_int_equal(info.entries, count);
  assert_true(info.bytes == bytes && bytes > 0);
  assert_true(info.max_bytes == (uint64_t)256 << 20);
  /* The limit: the option, else the variable (K, M, G are powers of 1024), else the default. */
  setenv("OCL_REDUCE_CACHE_MAX", "3M", 1);
  assert_int_equal(ocl_reduce_cache_query(&opts, &info), OCL_REDUCE_OK);
  assert_true(info.max_bytes == (uint64_t)3 << 20);
  opts.cache_max_bytes = 12345;
  assert_int_equal(ocl_reduce_cache_query(&opts, &info), OCL_REDUCE_OK);
  assert_true(info.max_bytes == 12345);
  opts.cache_max_bytes = 0;
  static const char *const bad[] = {"3X", "-1", "0", "", "1.5G", "M", "99999999999G"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    setenv("OCL_REDUCE_CACHE_MAX", bad[i], 1);
    if (!bad[i][0]) { /* empty: unset */
      assert_int_equal(ocl_reduce_cache_query(&opts, &info), OCL_REDUCE_OK);
      continue;
    }
    expect_error(ocl_reduce_cache_query(&opts, &info), OCL_REDUCE_ERROR_INVALID_OPTION, NULL,
                 "OCL_REDUCE_CACHE_MAX");
    ocl_reduce_context *ctx = (ocl_reduce_context *)&info; /* NULL on failure, as documented */
    expect_error(ocl_reduce_context_create(&opts, &ctx), OCL_REDUCE_ERROR_INVALID_OPTION, NULL,
                 "OCL_REDUCE_CACHE_MAX");
    assert_null(ctx);
  }
  unsetenv("OCL_REDUCE_CACHE_MAX");
  /* A caller built against 0.2's options, before cache_max_bytes, gets the default limit. */
  opts.struct_size = offsetof(ocl_reduce_options, cache_max_bytes);
  opts.cache_max_bytes = 1;
  assert_int_equal(ocl_reduce_cache_query(&opts, &info), OCL_REDUCE_OK);
  assert_true(info.max_bytes == (uint64_t)256 << 20);
  opts.struct_size = offsetof(ocl_reduce_options, cache_dir);
  expect_error(ocl_reduce_cache_query(&opts, &info), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "struct_size");
  opts.struct_size = sizeof opts;
  expect_error(ocl_reduce_cache_query(&opts, NULL), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "info");
  ocl_reduce_cache_info unset;
  memset(&unset, 0, sizeof unset);
  expect_error(ocl_reduce_cache_query(&opts, &unset), OCL_REDUCE_ERROR_INVALID_ARGUMENT, NULL,
               "struct_size");
  /* Clearing removes every entry and temporary. */
  char temporary[1024];
  snprintf(temporary, sizeof temporary, "%s/%064d.bin.%016d.tmp", dir, 7, 7);
  write_file(temporary, 10, time(NULL));
  uint64_t removed = 0;
  assert_int_equal(ocl_reduce_cache_clear(&opts, &removed), OCL_REDUCE_OK);
  assert_int_equal(removed, count + 1);
  assert_int_equal(entries(dir, 0, NULL, 0), 0);
  assert_int_equal(ocl_reduce_cache_query(&opts, &info), OCL_REDUCE_OK);
  assert_true(info.entries == 0 && info.bytes == 0);
  /* Off: no directory, nothing to remove. */
  opts.cache_dir = "off";
  assert_int_equal(ocl_reduce_cache_query(&opts, &info), OCL_REDUCE_OK);
  assert_string_equal(info.dir, "");
  assert_int_equal(ocl_reduce_cache_clear(&opts, NULL), OCL_REDUCE_OK);
}

/* A writer killed before its rename leaves a temporary, and a builder killed before it wrote
 * its entry the entry's lock: a later write removes either once it is an hour old, and leaves a
 * young one (another process may be writing or building it). */
static void test_stale_temporaries_go(void **state) {
  (void)state;
  char dir[512], old[1024], young[1024], old_lock[1024], young_lock[1024];
  make_dir(dir, sizeof dir, "stale");
  mkdir(dir, 0700);
  snprintf(old, sizeof old, "%s/%064d.bin.%016d.tmp", dir, 1, 1);
  snprintf(young, sizeof young, "%s/%064d.bin.%016d.tmp", dir, 2, 2);
  snprintf(old_lock, sizeof old_lock, "%s/%064d.bin.lock", dir, 3);
  snprintf(young_lock, sizeof young_lock, "%s/%064d.bin.lock", dir, 4);
  write_file(old, 100, time(NULL) - 7200);
  write_file(young, 100, time(NULL));
  write_file(old_lock, 0, time(NULL) - 7200);
  write_file(young_lock, 0, time(NULL));
  fresh_context(dir);
  assert_false(exists(old));
  assert_true(exists(young));
  assert_false(exists(old_lock));
  assert_true(exists(young_lock));
}

/* The ICD loader of the H200 machine (ocl-icd 2.3.2) cuts OCL_ICD_FILENAMES to its first entry
 * when it loads; the library puts it back, so that the processes an application starts see every
 * implementation (src/backends/opencl/device_list.c). The earlier tests made contexts. */
static void test_the_icd_list_stays_for_children(void **state) {
  (void)state;
  const char *initial = NULL;
  for (char **e = initial_environment; *e; e++)
    if (strncmp(*e, "OCL_ICD_FILENAMES=", 18) == 0)
      initial = *e + 18;
  const char *now = getenv("OCL_ICD_FILENAMES");
  if (!initial)
    assert_null(now);
  else
    assert_string_equal(now, initial);
}

int main(int argc, char **argv) {
  /* The cache holds the device's programs: no host plans, whose small reductions the calling
   * thread would run without building one (every context here, the children's too); and PoCL's
   * too, which the library leaves to PoCL's own cache otherwise (but in
   * test_pocl_keeps_its_own_programs). */
  test_policy_prepend("host=off,binaries=1");
  if (argc == 6 && !strcmp(argv[1], "fill"))
    return fill(argv[2], argv[3], argv[4], argv[5]);
  if (argc == 4 && !strcmp(argv[1], "killed"))
    return killed_writer(argv[2], argv[3]);
  size_t variables = 0;
  while (environ[variables])
    variables++;
  initial_environment = calloc(variables + 1, sizeof *initial_environment);
  if (!initial_environment)
    return 1;
  for (size_t i = 0; i < variables; i++)
    if (!(initial_environment[i] = strdup(environ[i])))
      return 1;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_second_context_loads_what_the_first_built),
      cmocka_unit_test(test_damaged_entries_are_rebuilt),
      cmocka_unit_test(test_pocl_keeps_its_own_programs),
      cmocka_unit_test(test_off_and_unwritable_directories),
      cmocka_unit_test(test_default_location_follows_xdg),
      cmocka_unit_test(test_processes_fill_one_cache_at_once),
      cmocka_unit_test(test_unreadable_entries_are_rebuilt),
      cmocka_unit_test(test_full_disk_keeps_nothing_partial),
      cmocka_unit_test(test_cache_keeps_to_its_limit),
      cmocka_unit_test(test_cache_query_clear_and_limits),
      cmocka_unit_test(test_stale_temporaries_go),
      cmocka_unit_test(test_writer_killed_mid_write),
      cmocka_unit_test(test_the_icd_list_stays_for_children),
  };
  return TEST_RUN(tests, setup, teardown);
}
