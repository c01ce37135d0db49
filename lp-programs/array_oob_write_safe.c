// expect: safe
// why: writes at indices 2, -1 and 10 are out of range for int a[2] and change nothing
void main() {
  int a[2] = {0, 0};
  int i;
  a[2] = 5;
  a[-1] = 7;
  i = 10;
  a[i] = 3;
  assert(a[0] == 0 && a[1] == 0);
}
