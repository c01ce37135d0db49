// expect: safe
// why: the first loop sets cells 0..n-1 to 42, and the second checks the same range
// (the fill-then-check example with a symbolic bound n and a variable-length array)
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 0 || n > 100000)
    return 0;
  int a[n];
  for (int i = 0; i < n; i++)
    a[i] = 42;
  for (int j = 0; j < n; j++)
    __VERIFIER_assert(a[j] == 42);
  return 0;
}
