// expect: safe
// why: a[j] = 1 writes the VLA a[n] at j, so in every defined execution 0 <= j < n afterwards; j >= n is an out-of-bounds write (undefined in C, a no-op under nondet)
// expect-bounds-nondet: unsafe
// expect-bounds-error: bounds
// assumes-in-bounds: 14
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
void reach_error() {}
int main() {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n > 0 && n <= 10);
  int a[n];
  int j = __VERIFIER_nondet_int();
  a[j] = 1;
  if (j >= n) reach_error();
  return 0;
}
