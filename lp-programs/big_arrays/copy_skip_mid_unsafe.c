// expect: unsafe
// why: the copy into b skips cell 150000, and c takes a's value there: the check of cell
// 150000 fails when a[150000] != b[150000], after a run of 7·10^5 steps
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void __VERIFIER_assert(int c) { if (!c) reach_error(); }
int main(void) {
  int a[200000];
  int b[200000];
  int c[200000];
  int z = 150000;
  for (int i = 0; i < 200000; i++) {
    a[i] = __VERIFIER_nondet_int();
    b[i] = __VERIFIER_nondet_int();
  }
  for (int i = 0; i < 200000; i++)
    if (i != z) b[i] = a[i];
  for (int i = 0; i < 200000; i++)
    if (i != z) c[i] = b[i]; else c[i] = a[i];
  for (int x = 0; x < 200000; x++) __VERIFIER_assert(b[x] == c[x]);
  return 0;
}
