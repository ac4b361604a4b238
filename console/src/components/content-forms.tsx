import type { EnvironmentFileInput } from '@engage/contracts/environment-file.ts';

/** A definition as the form edits it: any section's item, by field name. */
type Item = Record<string, unknown> & { key?: string };

/** One editable field of a section's items. */
type Field =
  | { name: string; label: string; kind: 'text' }
  | { name: string; label: string; kind: 'checkbox'; absent: boolean }
  | { name: string; label: string; kind: 'select'; options: readonly string[]; absent: string }
  /** A whole number; `optional`: an empty box removes the field (unlimited). */
  | { name: string; label: string; kind: 'number'; min: number; optional: boolean; absent?: number };

interface Section {
  title: string;
  /** Where its items are in the file: `missions`, or `marketplace.items`. */
  path: readonly [keyof EnvironmentFileInput] | readonly [keyof EnvironmentFileInput, string];
  fields: readonly Field[];
}

const name: Field = { name: 'name', label: 'Name', kind: 'text' };
const active: Field = { name: 'active', label: 'Active', kind: 'checkbox', absent: true };

/** Each content section's most edited fields; everything else is edited in the text. */
export const CONTENT_SECTIONS: readonly Section[] = [
  {
    title: 'Missions',
    path: ['missions'],
    fields: [
      name,
      active,
      { name: 'listed', label: 'Listed', kind: 'checkbox', absent: true },
      {
        name: 'repeat',
        label: 'Repeat',
        kind: 'select',
        options: ['none', 'daily', 'weekly', 'afterCompletion'],
        absent: 'none',
      },
    ],
  },
  { title: 'Mission collections', path: ['missionCollections'], fields: [name, active] },
  {
    title: 'Streaks',
    path: ['streaks'],
    fields: [
      name,
      active,
      { name: 'period', label: 'Period', kind: 'select', options: ['daily', 'weekly'], absent: 'daily' },
      {
        name: 'eventsPerPeriod',
        label: 'Events per period',
        kind: 'number',
        min: 1,
        optional: false,
        absent: 1,
      },
    ],
  },
  {
    title: 'Shop items',
    path: ['marketplace', 'items'],
    fields: [
      name,
      active,
      { name: 'priceInPoints', label: 'Price in points', kind: 'number', min: 0, optional: false },
      { name: 'stock', label: 'Stock', kind: 'number', min: 0, optional: true },
      { name: 'purchaseLimit', label: 'Purchase limit', kind: 'number', min: 1, optional: true },
    ],
  },
  { title: 'Shop collections', path: ['marketplace', 'collections'], fields: [name, active] },
  {
    title: 'Leaderboards',
    path: ['leaderboards'],
    fields: [
      name,
      active,
      { name: 'topSize', label: 'Top size', kind: 'number', min: 1, optional: false, absent: 100 },
      { name: 'isLocked', label: 'Locked', kind: 'checkbox', absent: false },
    ],
  },
];

function parsed(text: string): Record<string, unknown> | null {
  try {
    const file = JSON.parse(text) as unknown;
    return typeof file === 'object' && file !== null && !Array.isArray(file)
      ? (file as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function itemsAt(file: Record<string, unknown>, path: Section['path']): Item[] {
  let at: unknown = file[path[0]];
  if (path[1] !== undefined) at = (at as Record<string, unknown> | undefined)?.[path[1]];
  return Array.isArray(at) ? (at as Item[]) : [];
}

function withItems(file: Record<string, unknown>, path: Section['path'], items: Item[]) {
  if (path[1] === undefined) return { ...file, [path[0]]: items };
  const parent = (file[path[0]] ?? {}) as Record<string, unknown>;
  return { ...file, [path[0]]: { ...parent, [path[1]]: items } };
}

/**
 * The content's most edited fields as forms over the editor's text, one per section: a change here
 * rewrites the text (then Preview and Apply as for any edit), so forms and editor never disagree.
 */
export function ContentForms(props: { text: string; onText: (text: string) => void; readOnly: boolean }) {
  const file = parsed(props.text);
  return (
    <details className="card content-forms">
      <summary>Content as forms</summary>
      {!file && <p>The text is not a JSON object: fix it in the editor to use the forms.</p>}
      {file &&
        CONTENT_SECTIONS.map((section) => (
          <SectionForm
            key={section.title}
            section={section}
            items={itemsAt(file, section.path)}
            readOnly={props.readOnly}
            onItems={(items) =>
              props.onText(`${JSON.stringify(withItems(file, section.path, items), null, 2)}\n`)
            }
          />
        ))}
    </details>
  );
}

function SectionForm(props: {
  section: Section;
  items: Item[];
  readOnly: boolean;
  onItems: (items: Item[]) => void;
}) {
  const { section, items } = props;
  if (items.length === 0) return null;
  const change = (index: number, field: string, value: unknown) =>
    props.onItems(
      items.map((item, i) => {
        if (i !== index) return item;
        const next = { ...item, [field]: value };
        if (value === undefined) delete next[field];
        return next;
      }),
    );
  return (
    <table>
      <caption>{section.title}</caption>
      <thead>
        <tr>
          <th scope="col">Key</th>
          {section.fields.map((field) => (
            <th scope="col" key={field.name}>
              {field.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {items.map((item, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a key may repeat in text being edited; rows follow the text's order.
          <tr key={`${index}/${item.key}`}>
            <td>
              <code>{item.key}</code>
            </td>
            {section.fields.map((field) => (
              <td key={field.name}>
                <FieldInput
                  field={field}
                  item={item}
                  readOnly={props.readOnly}
                  onValue={(value) => change(index, field.name, value)}
                />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function FieldInput(props: {
  field: Field;
  item: Item;
  readOnly: boolean;
  onValue: (value: unknown) => void;
}) {
  const { field, item, readOnly, onValue } = props;
  const value = item[field.name];
  const label =
    field.kind === 'checkbox' ? `${item.key} ${field.label.toLowerCase()}` : `${field.label} of ${item.key}`;
  switch (field.kind) {
    case 'text':
      return typeof value === 'string' ? (
        <input
          aria-label={label}
          value={value}
          readOnly={readOnly}
          onChange={(e) => onValue(e.target.value)}
        />
      ) : (
        <span className="muted">translated: edit in the text</span>
      );
    case 'checkbox':
      return (
        <input
          type="checkbox"
          aria-label={label}
          checked={typeof value === 'boolean' ? value : field.absent}
          disabled={readOnly}
          onChange={(e) => onValue(e.target.checked)}
        />
      );
    case 'select':
      return (
        <select
          aria-label={label}
          value={typeof value === 'string' ? value : field.absent}
          disabled={readOnly}
          onChange={(e) => onValue(e.target.value)}
        >
          {field.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      );
    case 'number':
      return (
        <input
          type="number"
          aria-label={label}
          min={field.min}
          step={1}
          placeholder={field.optional ? 'unlimited' : undefined}
          value={typeof value === 'number' ? value : (field.absent ?? '')}
          readOnly={readOnly}
          onChange={(e) => {
            const text = e.target.value.trim();
            if (text === '') return onValue(field.optional ? undefined : value);
            const number = Number(text);
            // A number the schema refuses still goes to the text: Preview shows the refusal and its path.
            onValue(Number.isFinite(number) ? number : text);
          }}
        />
      );
  }
}
