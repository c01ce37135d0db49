// expect: safe
// why: the first loop zeroes a[0..3], the second adds j+1 to a[j], so a[1]==2 and a[3]==4
void main() {
  int i, j, a[4];
  i = 0;
  while (i < 4) {
    a[i] = 0;
    i = i + 1;
  }
  j = 0;
  while (j < 4) {
    a[j] = a[j] + j + 1;
    j = j + 1;
  }
  if (a[1] == 0)
    ERROR: ;
  assert(a[3] == 4);
}
