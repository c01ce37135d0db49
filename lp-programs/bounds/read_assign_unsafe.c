// expect: unsafe
// why: a[3] is 7, so i = 3 reads x = 7 in bounds (i = 4 is out of bounds too, but not needed)
// expect-bounds-nondet: unsafe
// expect-bounds-error: unsafe
extern int __VERIFIER_nondet_int(void);
int main() {
  int a[4] = {0, 0, 0, 7};
  int i = __VERIFIER_nondet_int();
  int x = a[i];
  if (x != 0) {
  ERROR: ;
  }
  return 0;
}
