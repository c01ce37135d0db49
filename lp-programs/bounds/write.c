// expect: safe
// why: a is zeroed, then a[i] = 1 sets exactly one cell, so the cells sum to 1; an out-of-bounds i leaves the sum 0 under nondet (a no-op write)
// expect-bounds-nondet: unsafe
// expect-bounds-error: bounds
// assumes-in-bounds: 14
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main() {
  int a[4];
  int k;
  for (k = 0; k < 4; k++)
    a[k] = 0;
  int i = __VERIFIER_nondet_int();
  a[i] = 1;
  __VERIFIER_assert(a[0] + a[1] + a[2] + a[3] == 1);
  return 0;
}
