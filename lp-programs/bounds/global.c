// expect: safe
// why: the global g is zeroed, so the sum of its first n cells is 0 for n <= 5; n > 5 reads g[5], out of bounds (undefined in C)
// expect-bounds-nondet: unsafe
// expect-bounds-error: bounds
// assumes-in-bounds: 12
extern int __VERIFIER_nondet_int(void);
int g[5];
int main() {
  int n = __VERIFIER_nondet_int();
  int s = 0;
  for (int k = 0; k < n; k++)
    s = s + g[k];
  if (s != 0) {
  ERROR: ;
  }
  return 0;
}
