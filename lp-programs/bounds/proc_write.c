// expect: safe
// why: set(i, 1) writes one cell of the zeroed global g, so its cells sum to 1 for i in bounds; under nondet an out-of-bounds write does nothing and the sum stays 0
// expect-bounds-nondet: unsafe
// expect-bounds-error: bounds
// assumes-in-bounds: 10
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int g[3];
void set(int k, int v) {
  g[k] = v;
}
int main() {
  int i = __VERIFIER_nondet_int();
  set(i, 1);
  __VERIFIER_assert(g[0] + g[1] + g[2] == 1);
  return 0;
}
