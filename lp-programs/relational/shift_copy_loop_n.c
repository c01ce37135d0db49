// expect: safe
// why: a[i] = b[i+1] for every i < n - 1, over arrays of a symbolic size n, and a second loop
// checks each: the cell b[k+1] beside a[k], kept apart where k + 1 reaches n
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main() {
  int n = __VERIFIER_nondet_int();
  if (n <= 1 || n > 100000)
    return 0;
  int a[n], b[n];
  for (int i = 0; i < n - 1; i++)
    a[i] = b[i + 1];
  for (int j = 0; j < n - 1; j++)
    __VERIFIER_assert(a[j] == b[j + 1]);
  return 0;
}
