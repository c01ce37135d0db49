// expect: unsafe
// why: j may be n, a cell the loop did not set (still 0) when n < 1000
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int a[1000];
int main() {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  for (int i = 0; i < n; i++) a[i] = 1;
  int j = __VERIFIER_nondet_int();
  if (j < 0 || j > n || j >= 1000) return 0;
  __VERIFIER_assert(a[j] == 1);
  return 0;
}
