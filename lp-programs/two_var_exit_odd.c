// expect: unsafe
// why: from (0,9) the loop ends at (5,4): the counters cross without meeting
void main() {
  int i, j;
  i = 0;
  j = 9;
  while (i < j) {
    i++;
    j--;
  }
  assert(i == j);
}
