// expect: safe
// open: the proof needs a[x] <= a[i] for x < i after each pass (sortedness of a prefix)
// why: every cell below i is at most a[i] after pass i
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
    for (int x = 0; x < i; x++) __VERIFIER_assert(a[x] <= a[i]);
  }
  return 0;
}
