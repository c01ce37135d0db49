// expect: safe
// why: 0+1+2+3+4 = 10, and 5 iterations counting down from 5 end at 0
void main() {
  int s, d;
  s = 0;
  for (int i = 0; i < 5; i++)
    s += i;
  d = 5;
  for (int j = 0; j < 5; j++)
    d--;
  assert(s == 10 && d == 0);
}
