/* fused_gather: row gather from a frozen float32 feature table (the project's small native helper, built with
 * `gcc -O2 -shared -fPIC -o libfusedgather.so oc_fused_gather.c`, called through ctypes). */
#include <assert.h>
#include <stdint.h>
#include <string.h>

void gather_rows(const float *table, int64_t nrows, int64_t dim, const int64_t *idx, int64_t n, float *out) {
    for (int64_t i = 0; i < n; i++) {
        int64_t r = idx[i];
        assert(r >= 0 && r < nrows);
        memcpy(out + i * dim, table + r * dim, (size_t)dim * sizeof(float));
    }
}
