// expect: unsafe
// why: main also sets g[2] = 1 before set(i, 1), so i = 0 makes the sum 2, in bounds
// expect-bounds-nondet: unsafe
// expect-bounds-error: unsafe
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int g[3];
void set(int k, int v) {
  g[k] = v;
}
int main() {
  int i = __VERIFIER_nondet_int();
  g[2] = 1;
  set(i, 1);
  __VERIFIER_assert(g[0] + g[1] + g[2] == 1);
  return 0;
}
