// expect: unsafe
// why: two cells of 100000 drawn from nondet values are equal; the first nest only reads
// (its flag is set to the 1 it always has), so its 5·10^9 steps are one summarised step
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void check(int c) { if (!c) reach_error(); }
int main(void) {
  int a[100000];
  int i;
  int r = 1;
  for (i = 0; i < 100000; i++) a[i] = __VERIFIER_nondet_int();
  for (i = 1; i < 100000 && r; i++) {
    int j;
    for (j = i - 1; j >= 0 && r; j--)
      if (a[i] == a[j]) r = 1;
  }
  if (r) {
    int x, y;
    for (x = 0; x < 100000; x++)
      for (y = x + 1; y < 100000; y++) check(a[x] != a[y]);
  }
  return 0;
}
