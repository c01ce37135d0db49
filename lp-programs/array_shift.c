// expect: safe
// why: shifting {1,2,3,4,5} left by one, front to back, gives {2,3,4,5,0}
void main() {
  int a[5] = {1, 2, 3, 4, 5};
  int i;
  for (i = 0; i < 4; i++)
    a[i] = a[i + 1];
  a[4] = 0;
  assert(a[0] == 2 && a[2] == 4 && a[3] == 5 && a[4] == 0);
}
