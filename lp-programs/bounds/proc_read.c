// expect: safe
// why: main writes only 0..3 into the global g, so get(i) returns a value below 4 for each i in bounds; get(i) at an out-of-bounds i is undefined
// expect-bounds-nondet: unsafe
// expect-bounds-error: bounds
// assumes-in-bounds: 10
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int g[4];
int get(int k) {
  return g[k];
}
int main() {
  for (int k = 0; k < 4; k++) g[k] = k;
  int i = __VERIFIER_nondet_int();
  __VERIFIER_assert(get(i) < 4);
  return 0;
}
