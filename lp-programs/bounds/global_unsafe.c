// expect: unsafe
// why: g[3] is set to 1, so n = 4 sums to 1 with every read in bounds
// expect-bounds-nondet: unsafe
// expect-bounds-error: unsafe
extern int __VERIFIER_nondet_int(void);
int g[5];
int main() {
  int n = __VERIFIER_nondet_int();
  int s = 0;
  g[3] = 1;
  for (int k = 0; k < n; k++)
    s = s + g[k];
  if (s != 0) {
  ERROR: ;
  }
  return 0;
}
