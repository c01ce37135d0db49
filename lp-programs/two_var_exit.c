// expect: safe
// why: i + j stays 10 and i - j shrinks by 2 from -10, so the loop ends with i == j == 5
void main() {
  int i, j;
  i = 0;
  j = 10;
  while (i < j) {
    i = i + 1;
    j = j - 1;
    assert(i + j == 10);
  }
  assert(i == 5 && j == 5);
}
