/* A plain C program embedding gnnpart through its C API, built with the flags of
 * `pkg-config --cflags --libs gnnpart` alone (no C++ compiler, no extra libraries):
 *   cc embed.c $(pkg-config --cflags --libs gnnpart) -o embed_c && ./embed_c 4
 * Partitions a side x side grid with the default options and checks the result itself: every
 * vertex in a block, no block over floor((1 + epsilon) * ceil(n / k)), the reported edge cut
 * recomputed. Prints "PASS" or "FAIL: reason". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <gnnpart/gnnpart.h>

#define SIDE 24
#define N (SIDE * SIDE)

static int fail(const char* reason) {
  printf("FAIL: %s\n", reason);
  return 1;
}

int main(int argc, char** argv) {
  const int32_t k = argc > 1 ? (int32_t)atoi(argv[1]) : 4;
  static int64_t xadj[N + 1];
  static int64_t adjncy[4 * N];
  static int32_t part[N];
  int64_t entries = 0;
  for (int64_t r = 0; r < SIDE; ++r) {
    for (int64_t c = 0; c < SIDE; ++c) {
      xadj[r * SIDE + c] = entries;
      if (r > 0) adjncy[entries++] = (r - 1) * SIDE + c;
      if (c > 0) adjncy[entries++] = r * SIDE + c - 1;
      if (c + 1 < SIDE) adjncy[entries++] = r * SIDE + c + 1;
      if (r + 1 < SIDE) adjncy[entries++] = (r + 1) * SIDE + c;
    }
  }
  xadj[N] = entries;

  gnnpart_options options = gnnpart_default_options();
  options.threads = 1; /* the default is all cores; one keeps this check reproducible */
  int64_t cut = -1;
  if (gnnpart_part_graph_kway(N, 1, xadj, adjncy, NULL, NULL, k, NULL, &options, &cut, part) !=
      GNNPART_OK) {
    printf("FAIL: %s\n", gnnpart_last_error());
    return 1;
  }
  int64_t sizes[1024] = {0};
  if (k < 1 || k > 1024) return fail("k out of the range this check handles");
  for (int64_t u = 0; u < N; ++u) {
    if (part[u] < 0 || part[u] >= k) return fail("a vertex without a block");
    ++sizes[part[u]];
  }
  const int64_t bound = (int64_t)((1.0 + options.epsilon) * (double)((N + k - 1) / k));
  for (int32_t b = 0; b < k; ++b)
    if (sizes[b] > bound || sizes[b] == 0) return fail("a block over the balance bound or empty");
  int64_t recomputed = 0;
  for (int64_t u = 0; u < N; ++u)
    for (int64_t e = xadj[u]; e < xadj[u + 1]; ++e)
      if (part[u] != part[adjncy[e]]) ++recomputed;
  if (recomputed / 2 != cut) return fail("the reported edge cut differs from the recomputed one");
  printf("PASS: gnnpart %s, n = %d, k = %d, edge cut %lld\n", gnnpart_version(), N, (int)k,
         (long long)cut);
  return 0;
}
