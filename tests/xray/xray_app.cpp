// xray_app.cpp - the workload the XRay fixtures and the benchmark record.
//
// A few always-instrumented functions (leaf, mid logging its first argument, recursive fib,
// top) run on the main thread and on two worker threads (a lambda, so the names include a
// demangled closure type).  `xray_app fdr [N]` selects flight-data-recorder mode through the
// XRay log interface and flushes the log itself; `xray_app basic [N]` expects the basic mode
// from XRAY_OPTIONS.  N scales the work: about 18*N records (the benchmark uses a large N);
// a third argument "single" runs the worker's loop on the main thread instead.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include "xray/xray_interface.h"
#include "xray/xray_log_interface.h"

static volatile int sink;

[[clang::xray_always_instrument]] __attribute__((noinline)) int leaf(int x) {
  sink = sink + x;
  return x + 1;
}

[[clang::xray_always_instrument, clang::xray_log_args(1)]] __attribute__((noinline)) int mid(int x) {
  int s = 0;
  for (int i = 0; i < 3; i++) s += leaf(x + i);
  return s;
}

[[clang::xray_always_instrument]] __attribute__((noinline)) int fib(int n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

[[clang::xray_always_instrument]] __attribute__((noinline)) int top(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += mid(i);
  return s + fib(3 + (n < 5 ? n : 5));
}

namespace {
struct Worker {
  [[clang::xray_always_instrument]] __attribute__((noinline)) static int run(int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += leaf(i) + fib(4);
    return s;
  }
};
}  // namespace

int main(int argc, char **argv) {
  bool fdr = argc > 1 && std::strcmp(argv[1], "fdr") == 0;
  int n = argc > 2 ? std::atoi(argv[2]) : 4;
  if (fdr) {
    if (__xray_log_select_mode("xray-fdr") != XRayLogRegisterStatus::XRAY_REGISTRATION_OK) {
      std::fprintf(stderr, "xray-fdr mode not available\n");
      return 1;
    }
    // XRAY_APP_FDR_OPTIONS adds FDR flags (the benchmark asks for bigger buffers).
    static char opts[512] = "func_duration_threshold_us=0";
    if (const char *more = std::getenv("XRAY_APP_FDR_OPTIONS")) {
      std::strncat(opts, " ", sizeof opts - std::strlen(opts) - 1);
      std::strncat(opts, more, sizeof opts - std::strlen(opts) - 1);
    }
    if (__xray_log_init_mode("xray-fdr", opts) !=
        XRayLogInitStatus::XRAY_LOG_INITIALIZED) {
      std::fprintf(stderr, "xray-fdr init failed\n");
      return 1;
    }
    __xray_patch();
  }
  int r = top(n);
  if (argc <= 3 || std::strcmp(argv[3], "single") != 0) {
    std::thread a([n] { sink = Worker::run(n / 4 + 1); });
    std::thread b([n] { sink = Worker::run(n / 4 + 1); });
    a.join();
    b.join();
  } else {
    sink = Worker::run(n);
  }
  if (fdr) {
    __xray_log_finalize();
    __xray_log_flushLog();
  }
  return r == 12345 ? 1 : 0;
}
