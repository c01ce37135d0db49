// expect: unsafe
// why: the sort orders the cells downwards, the check wants them upwards: any array with
// two different cells fails; a descending one (or one whose first cell is the greatest)
// is sorted in one pass, a random one takes 10^10 steps
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void __VERIFIER_assert(int c) { if (!c) reach_error(); }
int main(void) {
  int a[100000];
  for (int j = 0; j < 100000; j++) a[j] = __VERIFIER_nondet_int();
  int swapped = 1;
  while (swapped) {
    swapped = 0;
    for (int i = 1; i < 100000; i++) {
      if (a[i - 1] < a[i]) {
        int t = a[i]; a[i] = a[i - 1]; a[i - 1] = t;
        swapped = 1;
      }
    }
  }
  for (int x = 0; x + 1 < 100000; x++) __VERIFIER_assert(a[x] <= a[x + 1]);
  return 0;
}
