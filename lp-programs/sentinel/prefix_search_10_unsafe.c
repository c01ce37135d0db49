// expect: unsafe
// why: the search passes a cell equal to 0
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  int aa[10];
  for (int i = 0; i < 10; i++)
    aa[i] = __VERIFIER_nondet_int();
  int a = 0;
  while (aa[a] >= 0)
    a++;
  for (int x = 0; x < a; x++)
    __VERIFIER_assert(aa[x] > 0);
  return 0;
}
