// expect: safe
// why: a[2] = 5 is out of bounds for int a[2] in every execution (undefined in C); under nondet the writes at 2, -1 and 10 change nothing
// expect-bounds-nondet: safe
// expect-bounds-error: bounds
// assumes-in-bounds: 9
void main() {
  int a[2] = {0, 0};
  int i;
  a[2] = 5;
  a[-1] = 7;
  i = 10;
  a[i] = 3;
  assert(a[0] == 0 && a[1] == 0);
}
