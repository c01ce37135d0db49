// expect: safe
// why: the value 2 occurs exactly 3 times in {2,7,2,0,2,5}, and 9 never occurs
int a[6] = {2, 7, 2, 0, 2, 5};

int count(int key) {
  int i, c;
  c = 0;
  for (i = 0; i < 6; i++) {
    if (a[i] == key)
      c++;
  }
  return c;
}

void main() {
  int c2, c9;
  c2 = count(2);
  c9 = count(9);
  assert(c2 == 3);
  assert(c9 == 0);
}
