import { describe, expect, it } from 'vitest';
import { shownTime } from '../../../src/engine/shown-time.js';

describe('shownTime', () => {
  it.each([
    ['Written: 2023-11-07 15:03:30 Updated', '2023-11-07 15:03'],
    ['입력 2018.08.25 15:24 수정', '2018.08.25 15:24'],
    ['2023.11.07. 15:03', '2023.11.07. 15:03'],
    ['2020/02/19 (水) 20:29', '2020/02/19 (水) 20:29'],
    ['09.12.2014 17:02', '09.12.2014 17:02'],
    ['am 28.11.2026, um 11:32 Uhr', '28.11.2026, um 11:32'],
    ['2021年08月03日02:00 配信', '2021年08月03日02:00'],
    ['2019年2月22日 14時37分', '2019年2月22日 14時37分'],
    ['[06月24日 11時30分]', '06月24日 11時30分'],
  ])('reads a date with its clock time in %s', (text, time) => {
    expect(shownTime(`menu items ${text} and the story`)).toBe(time);
  });

  it.each([
    'June 19, 2023 and 2023-06-19 without a time',
    'version 11.2.2023.4 12:00 is a build number',
    'at 15:03 on a day not named',
    'phone 2023-11-07 1503',
    'call 12.2023 15:03',
    '',
  ])('finds no shown time in "%s"', (text) => {
    expect(shownTime(text)).toBeNull();
  });

  it('reads the first stamp only, within the start of the text', () => {
    expect(shownTime('2020-02-19 20:29 then 2020-02-20 08:00')).toBe('2020-02-19 20:29');
    expect(shownTime(`${'x'.repeat(70_000)} 2020-02-19 20:29`)).toBeNull();
  });
});
