// expect: safe
// why: the first loop sets every cell to 42, so the second loop's check a[j] == 42 holds at
// every cell (the fill-then-check example with a check of every cell, constant bound)
extern void __VERIFIER_assert(int);
int main() {
  int a[1000];
  for (int i = 0; i < 1000; i++)
    a[i] = 42;
  for (int j = 0; j < 1000; j++)
    __VERIFIER_assert(a[j] == 42);
  return 0;
}
