/** Text that may wrap after `_`, `.`, `/` and `-` (then anywhere, by CSS): field names and paths on a phone. */
import { Fragment } from 'react';

export const breakable = (text: string) =>
  text.split(/(?<=[_./-])/).map((part, i) => (
    <Fragment key={i}>
      {i > 0 ? <wbr /> : null}
      {part}
    </Fragment>
  ));
