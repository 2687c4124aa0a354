/* 'native' token-length normaliser used by ea_train.py --fault sigfpe: integer mean of the valid-token counts.
   No guard for count == 0 (an all-padding batch): integer division by zero -> SIGFPE on x86-64. */
int ea_mean_len(const int *lens, int n, int count) {
    int s = 0;
    for (int i = 0; i < n; i++) s += lens[i];
    return s / count;
}
