// expect: safe
// why: the loop fills every cell with 2*k, so a[j] is even for each j in bounds; j >= 5 is an out-of-bounds read (undefined in C)
// expect-bounds-nondet: unsafe
// expect-bounds-error: bounds
// assumes-in-bounds: 14
extern int __VERIFIER_nondet_int(void);
int main() {
  int a[5];
  int k;
  for (k = 0; k < 5; k++)
    a[k] = 2 * k;
  int j = __VERIFIER_nondet_int();
  if (j < 0) return 0;
  if (a[j] % 2 == 1) {
  ERROR: ;
  }
  return 0;
}
