// expect: safe
// why: the search passes only cells >= 0, so every cell below where it stops is >= 0
// open: the widening refines thresholds until the deadline before the bounds guards come back (they come only when it learns nothing more; before its lessons they cost check_loops/first_match_for.c its proof); at 10 constant cells and at a symbolic size the guards come in time
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  int aa[1000];
  for (int i = 0; i < 1000; i++)
    aa[i] = __VERIFIER_nondet_int();
  int a = 0;
  while (aa[a] >= 0)
    a++;
  for (int x = 0; x < a; x++)
    __VERIFIER_assert(aa[x] >= 0);
  return 0;
}
