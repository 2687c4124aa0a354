/* libxcops: the site's fused row-clamp kernel used by the feature pipeline (plain C, loaded with torch.ops.load_library) */
#include <stddef.h>
void xc_clamp_rows(float *x, size_t n, float lo, float hi) { for (size_t i = 0; i < n; i++) x[i] = x[i] < lo ? lo : (x[i] > hi ? hi : x[i]); }
