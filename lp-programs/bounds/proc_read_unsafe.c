// expect: unsafe
// why: the fill writes g[k] = k + 1, so get(3) returns 4, in bounds
// expect-bounds-nondet: unsafe
// expect-bounds-error: unsafe
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int g[4];
int get(int k) {
  return g[k];
}
int main() {
  for (int k = 0; k < 4; k++) g[k] = k + 1;
  int i = __VERIFIER_nondet_int();
  __VERIFIER_assert(get(i) < 4);
  return 0;
}
