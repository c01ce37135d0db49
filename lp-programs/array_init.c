// expect: safe
// why: the loop sets a[i] = 2*i+1 for every i in 0..5, so a[4] == 9 and a[0] == 1
void main() {
  int i, a[6];
  i = 0;
  while (i < 6) {
    a[i] = 2 * i + 1;
    i = i + 1;
  }
  if (a[4] != 9 || a[0] != 1)
    ERROR: ;
}
