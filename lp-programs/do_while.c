// expect: safe
// why: i = 3,6,9,12 stops at 12; the second body runs once although 50 < 10 is false
void main() {
  int i, j;
  i = 0;
  do {
    i = i + 3;
  } while (i < 10);
  j = 50;
  do {
    j++;
  } while (j < 10);
  assert(i == 12);
  assert(j == 51);
}
