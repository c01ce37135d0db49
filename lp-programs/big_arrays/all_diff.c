// expect: safe
// why: the cells hold their own index, so no two are equal; the nest before the check
// only reads
extern void reach_error(void);
void check(int c) { if (!c) reach_error(); }
int main(void) {
  int a[100000];
  int i;
  int r = 1;
  for (i = 0; i < 100000; i++) a[i] = i;
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
