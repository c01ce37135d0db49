// expect: unsafe
// why: shifting right front to back copies a[0] everywhere: {1,1,1,1,1}, so a[2] != 2
void main() {
  int a[5] = {1, 2, 3, 4, 5};
  int i;
  for (i = 0; i < 4; i++)
    a[i + 1] = a[i];
  assert(a[2] == 2);
}
