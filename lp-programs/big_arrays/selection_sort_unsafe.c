// expect: unsafe
// why: after the second pass a[0] < a[1] whenever the two least cells differ, and the
// check wants every cell >= a[i]; a run over distinct cells fails at i == 1 (about 3·10^5
// steps), a run over few distinct values only after all copies of the least one
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void __VERIFIER_assert(int c) { if (!c) reach_error(); }
int main(void) {
  int a[100000];
  for (int i = 0; i < 100000; i++) a[i] = __VERIFIER_nondet_int();
  for (int i = 0; i < 100000; i++) {
    int s = i;
    for (int k = i + 1; k < 100000; k++)
      if (a[k] < a[s]) s = k;
    int t = a[s]; a[s] = a[i]; a[i] = t;
    for (int x = 0; x < 100000; x++) __VERIFIER_assert(a[x] >= a[i]);
  }
  return 0;
}
