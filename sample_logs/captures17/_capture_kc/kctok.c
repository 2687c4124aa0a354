/* libkctok.so: "fast" whitespace tokenizer hash used by kc_train.py --fast-tokenize (ctypes).
   Bug kept on purpose: a NULL text pointer (empty field passed as None) is dereferenced. */
#include <stdint.h>
uint64_t kc_hash_tokens(const char *s, int n) {
    uint64_t h = 1469598103934665603ULL;
    int i = 0;
    do {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
        i++;
    } while (i < n);
    return h;
}
