import { z } from './zod.ts';

export const placementQuestionSchema = z.object({
  title: z.string(),
  options: z.array(z.object({ text: z.string(), points: z.number() })),
});
export type PlacementQuestion = z.infer<typeof placementQuestionSchema>;
/** GET /api/placement/questions */
export const placementQuestionsAnswerSchema = z.object({ data: z.array(placementQuestionSchema) });

/** The placement questionnaire's default questions (10 questions, options with points). */

export const PLACEMENT_QUESTIONS: PlacementQuestion[] = [
  {
    title: 'How long have you been playing drums?',
    options: [
      { text: 'I am just starting', points: 0 },
      { text: 'Less than a year', points: 1 },
      { text: '1 to 3 years', points: 2 },
      { text: '3 to 10 years', points: 3 },
      { text: 'More than 10 years', points: 4 },
    ],
  },
  {
    title: 'Can you play a basic rock beat with eighth notes on the hi-hat?',
    options: [
      { text: 'Not yet', points: 0 },
      { text: 'Slowly, with some mistakes', points: 1 },
      { text: 'Yes, comfortably', points: 3 },
      { text: 'Yes, at any tempo and with variations', points: 4 },
    ],
  },
  {
    title: 'How well do you read drum notation?',
    options: [
      { text: 'I do not read music', points: 0 },
      { text: 'Quarter and eighth notes', points: 1 },
      { text: 'Sixteenths and rests', points: 2 },
      { text: 'Triplets, syncopation and charts', points: 4 },
    ],
  },
  {
    title: 'How do you feel playing with a metronome?',
    options: [
      { text: 'I have never tried', points: 0 },
      { text: 'I drift away from it', points: 1 },
      { text: 'I can stay with it at moderate tempos', points: 2 },
      { text: 'I can place notes ahead of or behind it on purpose', points: 4 },
    ],
  },
  {
    title: 'Can you play fills around the kit and land back on the one?',
    options: [
      { text: 'Not yet', points: 0 },
      { text: 'Simple one-beat fills', points: 1 },
      { text: 'One-bar fills with sixteenths', points: 3 },
      { text: 'Fills with triplets, flams and odd groupings', points: 4 },
    ],
  },
  {
    title: 'How independent are your hands and feet?',
    options: [
      { text: 'They like to move together', points: 0 },
      { text: 'I can vary the kick under a steady hi-hat', points: 2 },
      { text: 'I can play ostinatos and move the other limbs freely', points: 4 },
    ],
  },
  {
    title: 'Which rudiments can you play cleanly?',
    options: [
      { text: 'None yet', points: 0 },
      { text: 'Single and double strokes', points: 1 },
      { text: 'Paradiddles and flams too', points: 3 },
      { text: 'Most of the 40 rudiments', points: 4 },
    ],
  },
  {
    title: 'Do you use ghost notes and dynamics in your grooves?',
    options: [
      { text: 'What are ghost notes?', points: 0 },
      { text: 'I am learning them', points: 1 },
      { text: 'Yes, in funk and shuffle grooves', points: 3 },
      { text: 'Yes, with control at every tempo', points: 4 },
    ],
  },
  {
    title: 'How many styles can you play convincingly?',
    options: [
      { text: 'One, or none yet', points: 0 },
      { text: 'Two or three', points: 2 },
      { text: 'Many (rock, funk, jazz, latin...)', points: 4 },
    ],
  },
  {
    title: 'Have you played with other musicians?',
    options: [
      { text: 'Not yet', points: 0 },
      { text: 'Jammed with friends', points: 1 },
      { text: 'In a band or at church regularly', points: 3 },
      { text: 'Gigs and recording sessions', points: 4 },
    ],
  },
];

/** Total of the chosen options' points (docs/product/placement.md). `answers[i]` is the option index of question i. */
export function placementScore(questions: PlacementQuestion[], answers: number[]): number {
  return answers.reduce((sum, option, i) => sum + (questions[i]?.options[option]?.points ?? 0), 0);
}
