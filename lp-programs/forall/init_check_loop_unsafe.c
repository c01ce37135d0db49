// expect: unsafe
// why: the first loop writes i instead of 0, which is 0 only at i = 0; witness n = 2: the
// second loop fails at i = 1
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 100000) return 0;
  int a[n];
  for (int i = 0; i < n; i++) a[i] = i;
  for (int i = 0; i < n; i++) __VERIFIER_assert(a[i] == 0);
  return 0;
}
