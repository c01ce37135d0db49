// expect: safe
// why: i goes 0,2,...,10 so it stays even and the != guard stops exactly at 10
void main() {
  int i;
  i = 0;
  while (i != 10) {
    if (i % 2 == 1)
      ERROR: ;
    i = i + 2;
  }
  assert(i == 10);
}
