// expect: unsafe
// why: the loop fills a[k] with k, not 2*k, so j = 1 reads the odd a[1] in bounds
// expect-bounds-nondet: unsafe
// expect-bounds-error: unsafe
extern int __VERIFIER_nondet_int(void);
int main() {
  int a[5];
  int k;
  for (k = 0; k < 5; k++)
    a[k] = k;
  int j = __VERIFIER_nondet_int();
  if (j < 0) return 0;
  if (a[j] % 2 == 1) {
  ERROR: ;
  }
  return 0;
}
