// tcp_baseline.h
//
// The baseline of remote copies: bare TCP streams over loopback between
// processes, each message acknowledged with one byte — what transfer_bench
// and grpc_bytes_bench compare their figures with.

#ifndef NPUD_BENCH_TCP_BASELINE_H_
#define NPUD_BENCH_TCP_BASELINE_H_

#include <cstddef>

namespace npud::bench {

// Enough repetitions of a `size`-byte copy for a steady figure without
// taking all day.
int RepsFor(size_t size);

// `streams` bare TCP streams at once, each to a child process that
// receives RepsFor(size) messages of `size` bytes (after one to warm up)
// into a 1 MiB buffer; returns the bytes of all streams per second, GB/s.
double TcpStreamGbps(size_t size, int streams = 1);

}  // namespace npud::bench

#endif  // NPUD_BENCH_TCP_BASELINE_H_
