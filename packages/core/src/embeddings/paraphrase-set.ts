/**
 * A small paraphrase retrieval set, written for this project (not taken from any benchmark): memories as
 * the extractor stores them ("The user …"), and for most of them a question a product would ask about it in
 * other words, sharing few or no content words with the memory. Retrieval of a question is scored against
 * all memories, the extra ones (no question) included as distractors on the same topics.
 * Used by scripts/bench-local-encoder.ts.
 */
export interface ParaphrasePair {
  topic: string;
  memory: string;
  question: string;
}

export const PARAPHRASE_PAIRS: readonly ParaphrasePair[] = [
  // jobs
  { topic: 'job', memory: 'The user works as a pediatric nurse at a children’s hospital', question: "What's the user's job?" },
  { topic: 'job', memory: 'The user quit her accounting position in March to start a pottery studio', question: 'Did the user change careers recently?' },
  { topic: 'job', memory: 'The user manages a team of six backend developers', question: 'How many people report to the user?' },
  { topic: 'job', memory: 'The user drives a delivery van on night shifts', question: 'What hours does the user work?' },
  // pets
  { topic: 'pets', memory: 'The user adopted a rescue greyhound named Biscuit last year', question: 'Does the user have any animals at home?' },
  { topic: 'pets', memory: 'The user’s cat needs insulin injections twice a day', question: 'Is the user’s kitty sick?' },
  { topic: 'pets', memory: 'The user keeps tropical fish in a 200-litre aquarium', question: 'What kind of aquatic creatures does the user look after?' },
  // diet
  { topic: 'diet', memory: 'The user has been vegan since 2019', question: 'Does the user eat meat or dairy?' },
  { topic: 'diet', memory: 'The user is allergic to peanuts and carries an EpiPen', question: 'Which foods must the user avoid?' },
  { topic: 'diet', memory: 'The user drinks three espressos before noon', question: 'How much caffeine does the user have in the morning?' },
  { topic: 'diet', memory: 'The user is trying intermittent fasting and skips breakfast', question: 'Is the user on some kind of eating plan?' },
  // family
  { topic: 'family', memory: 'The user’s daughter Maya starts kindergarten in September', question: 'How old are the user’s kids?' },
  { topic: 'family', memory: 'The user’s mother moved into an assisted living facility', question: 'Where do the user’s parents live now?' },
  { topic: 'family', memory: 'The user is married to a firefighter named Tom', question: 'What does the user’s husband do for a living?' },
  { topic: 'family', memory: 'The user has a twin brother who lives in Melbourne', question: 'Does the user have siblings?' },
  // hobbies
  { topic: 'hobbies', memory: 'The user plays bass guitar in a weekend cover band', question: 'Does the user make music?' },
  { topic: 'hobbies', memory: 'The user is training for her first marathon in October', question: 'Is the user preparing for a race?' },
  { topic: 'hobbies', memory: 'The user knits sweaters for her grandchildren', question: 'What crafts does the user enjoy?' },
  { topic: 'hobbies', memory: 'The user collects vintage film cameras', question: 'What does the user like to hoard as a collector?' },
  { topic: 'hobbies', memory: 'The user spends Sunday mornings birdwatching at the lake', question: 'How does the user spend the weekend outdoors?' },
  // health
  { topic: 'health', memory: 'The user was diagnosed with type 2 diabetes two years ago', question: 'Does the user have a chronic illness?' },
  { topic: 'health', memory: 'The user tore a ligament in her knee while skiing', question: 'Has the user had any sports injuries?' },
  { topic: 'health', memory: 'The user sleeps badly and wakes up around 4 am most nights', question: 'Does the user suffer from insomnia?' },
  { topic: 'health', memory: 'The user takes medication for high blood pressure', question: 'Is the user on any prescriptions?' },
  // travel
  { topic: 'travel', memory: 'The user is flying to Tokyo for two weeks in April', question: 'Does the user have a trip to Japan planned?' },
  { topic: 'travel', memory: 'The user gets seasick and avoids boats', question: 'Would the user enjoy a cruise?' },
  { topic: 'travel', memory: 'The user spent a semester studying in Barcelona', question: 'Has the user lived abroad?' },
  { topic: 'travel', memory: 'The user always books window seats on planes', question: 'Where does the user prefer to sit when flying?' },
  // home
  { topic: 'home', memory: 'The user rents a one-bedroom apartment downtown', question: 'Does the user own a house?' },
  { topic: 'home', memory: 'The user is renovating the kitchen and replacing the cabinets', question: 'What home improvement project is the user working on?' },
  { topic: 'home', memory: 'The user grows tomatoes and basil on her balcony', question: 'Does the user have a garden?' },
  { topic: 'home', memory: 'The user moved from Chicago to Denver last summer', question: 'Which city did the user relocate to?' },
  // finance
  { topic: 'finance', memory: 'The user is saving for a down payment on a condo', question: 'What is the user putting money aside for?' },
  { topic: 'finance', memory: 'The user still owes forty thousand dollars in student loans', question: 'Does the user have any debt?' },
  { topic: 'finance', memory: 'The user invests in low-cost index funds every month', question: 'How does the user handle retirement savings?' },
  { topic: 'finance', memory: 'The user earns about 85k a year', question: 'What is the user’s salary?' },
  // preferences, goals, skills
  { topic: 'preferences', memory: 'The user prefers short answers without bullet points', question: 'How should replies to the user be formatted?' },
  { topic: 'preferences', memory: 'The user dislikes horror movies', question: 'What films should not be recommended to the user?' },
  { topic: 'goals', memory: 'The user wants to become fluent in Spanish by next year', question: 'Which language is the user learning?' },
  { topic: 'skills', memory: 'The user has ten years of experience with PostgreSQL', question: 'How well does the user know databases?' },
  { topic: 'education', memory: 'The user has a master’s degree in marine biology', question: 'What did the user study at university?' },
  { topic: 'vehicle', memory: 'The user commutes by bicycle and does not own a car', question: 'How does the user get to work?' },
];

/** Memories with no question of their own, on the same topics: what a question must not be answered with. */
export const DISTRACTORS: readonly string[] = [
  'The user’s brother works as an electrician',
  'The user’s neighbour has two noisy dogs',
  'The user thinks hospital food is terrible',
  'The user ordered a new office chair',
  'The user watched a documentary about sharks',
  'The user’s favourite colour is green',
  'The user forgot her umbrella at the train station',
  'The user’s book club is reading a mystery novel this month',
  'The user bought a new laptop for video editing',
  'The user likes to cook Thai curry on Fridays',
  'The user’s friend is getting married in June',
  'The user’s car insurance renewal is due next week',
  'The user prefers tea over hot chocolate in winter',
  'The user painted the living room walls blue',
  'The user follows several cycling races on television',
  'The user’s phone screen cracked yesterday',
  'The user volunteers at a food bank on Saturdays',
  'The user asked for a summary of the quarterly report',
];

/**
 * The other side: questions that name something the memory names (a pet, a person, a place, a product),
 * where the words matter more than the meaning. A mixture must not lose these to gain the paraphrases.
 * `memory` is the exact text of the right memory above (a pair's memory or a distractor).
 */
export const KEYWORD_QUERIES: readonly { question: string; memory: string }[] = [
  { question: 'Tell me about Biscuit', memory: 'The user adopted a rescue greyhound named Biscuit last year' },
  { question: 'Is Tom on shift this weekend?', memory: 'The user is married to a firefighter named Tom' },
  { question: 'When does Maya start school?', memory: 'The user’s daughter Maya starts kindergarten in September' },
  { question: 'Who does the user know in Melbourne?', memory: 'The user has a twin brother who lives in Melbourne' },
  { question: 'Where does the user keep the EpiPen?', memory: 'The user is allergic to peanuts and carries an EpiPen' },
  { question: 'PostgreSQL upgrade advice', memory: 'The user has ten years of experience with PostgreSQL' },
  { question: 'Tokyo hotel recommendations', memory: 'The user is flying to Tokyo for two weeks in April' },
  { question: 'What did the user think of Barcelona?', memory: 'The user spent a semester studying in Barcelona' },
  { question: 'Coffee shops in Denver', memory: 'The user moved from Chicago to Denver last summer' },
  { question: 'What time are the insulin injections?', memory: 'The user’s cat needs insulin injections twice a day' },
  { question: 'Which espresso machine should the user buy?', memory: 'The user drinks three espressos before noon' },
  { question: 'marathon training plan', memory: 'The user is training for her first marathon in October' },
  { question: 'Are index funds fees worth checking?', memory: 'The user invests in low-cost index funds every month' },
  { question: 'bass guitar strings', memory: 'The user plays bass guitar in a weekend cover band' },
  { question: 'What colour are the new kitchen cabinets?', memory: 'The user is renovating the kitchen and replacing the cabinets' },
  { question: 'Thai curry recipe', memory: 'The user likes to cook Thai curry on Fridays' },
  { question: 'Has the office chair arrived?', memory: 'The user ordered a new office chair' },
  { question: 'food bank schedule', memory: 'The user volunteers at a food bank on Saturdays' },
];
