// expect: safe
// why: the search passes only cells >= 0, over an array of a symbolic size
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100000)
    return 0;
  int aa[n];
  for (int i = 0; i < n; i++)
    aa[i] = __VERIFIER_nondet_int();
  int a = 0;
  while (aa[a] >= 0)
    a++;
  for (int x = 0; x < a; x++)
    __VERIFIER_assert(aa[x] >= 0);
  return 0;
}
